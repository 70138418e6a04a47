import { useErpHarness, byId, jsonOf } from './setup';

const h = useErpHarness();

describe('Product', () => {
	it('creates a product', async () => {
		const result = await h.run({
			resource: 'product',
			operation: 'create',
			sku: 'CHAIR-OAK-01',
			name: 'Oak chair',
			additionalFields: { unitPrice: 149.9, lowStockThreshold: 5, active: false },
		});
		const [product] = await h.sandbox.admin.records('products');
		expect(product).toMatchObject({ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false });
		expect(jsonOf(result)).toEqual([product]);
	});

	it('refuses a malformed SKU and a negative threshold before sending', async () => {
		const sku = await h.run({ resource: 'product', operation: 'create', sku: 'chair oak', name: 'Oak chair' });
		expect(sku.error?.message).toMatch(/^SKU "chair oak" may only use letters, digits/);
		const threshold = await h.run({
			resource: 'product',
			operation: 'create',
			sku: 'A1',
			name: 'A',
			additionalFields: { lowStockThreshold: -2 },
		});
		expect(threshold.error?.message).toBe('Low Stock Threshold must be a whole number of 0 or more, not -2');
		expect(await h.requests()).toEqual([]);
	});

	it('reports a taken SKU with the field message', async () => {
		await h.run({ resource: 'product', operation: 'create', sku: 'DUP-1', name: 'First' });
		const second = await h.run({ resource: 'product', operation: 'create', sku: 'DUP-1', name: 'Second' });
		expect(second.error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});

	it('gets, updates and lists products', async () => {
		await h.sandbox.admin.seed({ products: 30 });
		const products = await h.sandbox.admin.records('products');
		const one = await h.run({ resource: 'product', operation: 'get', productId: byId(products[2].id) });
		expect(jsonOf(one)).toEqual([products[2]]);

		const updated = await h.run({ resource: 'product', operation: 'update', productId: byId(products[2].id), updateFields: { unitPrice: 12.5 } });
		const stored = (await h.sandbox.admin.records('products'))[2];
		expect(stored.unit_price).toBe(12.5);
		expect(jsonOf(updated)).toEqual([stored]);

		const low = await h.run({ resource: 'product', operation: 'getAll', returnAll: true, filters: { lowStock: true } });
		const expectedLow = (await h.sandbox.admin.records('products')).filter((p) => p.stock_total < p.low_stock_threshold);
		expect(jsonOf(low).map((p) => p.id)).toEqual(expectedLow.map((p) => p.id));
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
