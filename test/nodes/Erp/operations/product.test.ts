import { useErpHarness, byId, createWith, jsonOf } from './setup';

const h = useErpHarness();

describe('Product', () => {
	it('creates a product', async () => {
		const result = await h.run(createWith('product', { sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false }));
		const [product] = await h.sandbox.admin.records('products');
		expect(product).toMatchObject({ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false });
		expect(jsonOf(result)).toEqual([product]);
	});

	it('sends what only the ERP can judge (SKU characters, ranges) and shows its 422 with the field', async () => {
		const sku = await h.run(createWith('product', { sku: 'chair/oak 01', name: 'Oak chair' }));
		expect(sku.error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		const threshold = await h.run(createWith('product', { sku: 'A1', name: 'A', low_stock_threshold: -2 }));
		expect(threshold.error?.message).toMatch(/^The ERP refused to create the product \(422\): low_stock_threshold: /);
		expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /products 422', 'POST /products 422']);
	});

	it('refuses a number field whose value is no number, naming the field, before sending', async () => {
		const result = await h.run(createWith('product', { sku: 'A1', name: 'A', unit_price: '={{ $json.price }}' }), { input: [{ price: 'cheap' }] });
		expect(result.error?.message).toBe("Invalid input for 'unit_price' [item 0]");
		expect(await h.requests()).toEqual([]);
	});

	it('reports a taken SKU with the field message', async () => {
		await h.run(createWith('product', { sku: 'DUP-1', name: 'First' }));
		const second = await h.run(createWith('product', { sku: 'DUP-1', name: 'Second' }));
		expect(second.error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});

	it('gets, updates and lists products', async () => {
		await h.sandbox.admin.seed({ products: 30 });
		const products = await h.sandbox.admin.records('products');
		const one = await h.run({ resource: 'product', operation: 'get', productId: byId(products[2].id) });
		expect(jsonOf(one)).toEqual([products[2]]);

		await h.mark();
		const updated = await h.run({ resource: 'product', operation: 'update', productId: byId(products[2].id), updateFields: { unitPrice: 12.5 } });
		const stored = (await h.sandbox.admin.records('products'))[2];
		expect(stored).toEqual({ ...products[2], unit_price: 12.5, updated_at: stored.updated_at });
		expect(jsonOf(updated)).toEqual([stored]);
		const [read, put] = await h.requests();
		expect([read.method, put.method]).toEqual(['GET', 'PUT']);
		const { id, created_at, updated_at, stock_total, ...rest } = products[2];
		expect([id, created_at, updated_at, stock_total].every((value) => value !== undefined)).toBe(true);
		expect(put.body).toEqual({ ...rest, unit_price: 12.5 });
	});

	it('filters by active and low stock in three states each: only yes, only no, or no filter', async () => {
		await h.sandbox.admin.seed({ products: 40 });
		const all = await h.sandbox.admin.records('products');
		const ids = async (filters: Record<string, string>) =>
			jsonOf(await h.run({ resource: 'product', operation: 'getAll', returnAll: true, filters })).map((p) => p.id);
		const isLow = (p: (typeof all)[number]) => (p.stock_total as number) < (p.low_stock_threshold as number);
		expect(await ids({ lowStock: 'true' })).toEqual(all.filter(isLow).map((p) => p.id));
		expect(await ids({ lowStock: 'false' })).toEqual(all.filter((p) => !isLow(p)).map((p) => p.id));
		expect(await ids({ lowStock: '' })).toEqual(all.map((p) => p.id));
		expect(all.filter(isLow).length).toBeGreaterThan(0);
		await h.run({ resource: 'product', operation: 'update', productId: byId(all[0].id), updateFields: { active: false } });
		const now = await h.sandbox.admin.records('products');
		expect(now[0].active).toBe(false);
		expect(await ids({ active: 'false' })).toEqual(now.filter((p) => p.active === false).map((p) => p.id));
		expect(await ids({ active: 'true' })).toEqual(now.filter((p) => p.active === true).map((p) => p.id));
		expect(await ids({ active: '' })).toEqual(now.map((p) => p.id));
	});

	it('returns the stock of a product, one item per warehouse', async () => {
		await h.sandbox.admin.seed({ products: 2 });
		const [product] = await h.sandbox.admin.records('products');
		await h.sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 17, reserved: 4 });
		const expected = (await h.sandbox.admin.records('stock')).filter((row) => row.product_id === product.id);
		const result = await h.run({ resource: 'product', operation: 'getStock', productId: byId(product.id) });
		expect(jsonOf(result)).toHaveLength(3);
		expect(jsonOf(result).map((row) => row.warehouse_id)).toEqual(expected.map((row) => row.warehouse_id));
		expect(jsonOf(result).find((row) => row.warehouse_id === 2)).toMatchObject({ quantity: 17, reserved: 4, available: 13 });
	});
});
