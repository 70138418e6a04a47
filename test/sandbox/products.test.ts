import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import type { Product } from '../../sandbox/types';
import { createProduct, ISO_MS, PRODUCT_DEFAULTS } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

describe('POST /products', () => {
	it('creates with the documented defaults and no stock', async () => {
		const response = await sandbox.api.post('/products', { sku: 'CHAIR-1', name: 'Office Chair' });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: 1,
				sku: 'CHAIR-1',
				name: 'Office Chair',
				...PRODUCT_DEFAULTS,
				stock_total: 0,
				created_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			},
		});
		expect((await sandbox.api.get('/products/1')).data.data).toEqual(response.data.data);
	});

	it('keeps every given field and ignores stock_total', async () => {
		const product = await createProduct(sandbox.api, {
			description: 'Mesh back',
			unit_price: 249.9,
			currency: 'CHF',
			unit: 'box',
			low_stock_threshold: 0,
			active: false,
			stock_total: 99,
			custom_fields: { ean: '4006381333931' },
		});
		expect(product).toMatchObject({ description: 'Mesh back', unit_price: 249.9, currency: 'CHF', unit: 'box', low_stock_threshold: 0, active: false, stock_total: 0, custom_fields: { ean: '4006381333931' } });
	});

	it.each([
		['sku and name missing', {}, { sku: ['is required'], name: ['is required'] }],
		['sku with a space', { sku: 'CHAIR 1', name: 'x' }, { sku: [expect.any(String)] }],
		['sku of 65 characters', { sku: 'A'.repeat(65), name: 'x' }, { sku: [expect.any(String)] }],
		['name of 201 characters', { sku: 'A', name: 'x'.repeat(201) }, { name: ['must be at most 200 characters'] }],
		['a negative price', { sku: 'A', name: 'x', unit_price: -5 }, { unit_price: ['must be at least 0'] }],
		['a price with 3 decimals', { sku: 'A', name: 'x', unit_price: 9.999 }, { unit_price: ['must have at most 2 decimals'] }],
		['a fractional threshold', { sku: 'A', name: 'x', low_stock_threshold: 2.5 }, { low_stock_threshold: ['must be an integer'] }],
		['a negative threshold', { sku: 'A', name: 'x', low_stock_threshold: -1 }, { low_stock_threshold: ['must be at least 0'] }],
		['active as a string', { sku: 'A', name: 'x', active: 'yes' }, { active: ['must be true or false'] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/products', body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
	});

	it('answers 422 for a SKU already taken', async () => {
		const first = await createProduct(sandbox.api, { sku: 'DESK-160' });
		const response = await sandbox.api.post('/products', { sku: 'DESK-160', name: 'Another desk' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ sku: [`is already taken by product ${first.id}`] });
		expect(await sandbox.admin.records('products')).toHaveLength(1);
	});
});

describe('PUT /products/{id}', () => {
	it('is a partial update answering the full product', async () => {
		const product = await createProduct(sandbox.api);
		const response = await sandbox.api.put(`/products/${product.id}`, { name: 'Office Chair Pro', unit_price: 299 });
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({ ...product, name: 'Office Chair Pro', unit_price: 299, updated_at: expect.stringMatching(ISO_MS) });
	});

	it('changes the SKU, freeing the old one', async () => {
		const product = await createProduct(sandbox.api, { sku: 'OLD-1' });
		expect((await sandbox.api.put(`/products/${product.id}`, { sku: 'NEW-1' })).data.data.sku).toBe('NEW-1');
		expect((await sandbox.api.put(`/products/${product.id}`, { sku: 'NEW-1' })).status).toBe(200);
		expect((await sandbox.api.post('/products', { sku: 'OLD-1', name: 'Reuse' })).status).toBe(201);
		const taken = await sandbox.api.put(`/products/${product.id}`, { sku: 'OLD-1' });
		expect(taken.status).toBe(422);
		expect(Object.keys(taken.data.error.fields)).toEqual(['sku']);
	});

	it.each([
		['an empty body', {}],
		['only stock (not writable)', { stock_total: 500 }],
		['name null', { name: null }],
		['a bad currency', { currency: 'euro' }],
	])('answers 422 for %s', async (_name, body) => {
		const product = await createProduct(sandbox.api);
		const response = await sandbox.api.put(`/products/${product.id}`, body);
		expect(response.status).toBe(422);
		expect((await sandbox.api.get(`/products/${product.id}`)).data.data).toEqual(product);
	});

	it('answers 404 for an unknown product', async () => {
		expect((await sandbox.api.put('/products/42', { name: 'x' })).status).toBe(404);
	});
});

describe('GET /products/{id}/stock', () => {
	it('lists one row per warehouse with available = quantity - reserved', async () => {
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 40, reserved: 15 });
		const response = await sandbox.api.get(`/products/${product.id}/stock`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({
			success: true,
			data: [
				{ warehouse_id: 1, warehouse_code: 'MAIN', warehouse_name: 'Main Warehouse', quantity: 0, reserved: 0, available: 0, updated_at: expect.stringMatching(ISO_MS) },
				{ warehouse_id: 2, warehouse_code: 'NORTH', warehouse_name: 'North Hub', quantity: 40, reserved: 15, available: 25, updated_at: expect.stringMatching(ISO_MS) },
				{ warehouse_id: 3, warehouse_code: 'SOUTH', warehouse_name: 'South Hub', quantity: 0, reserved: 0, available: 0, updated_at: expect.stringMatching(ISO_MS) },
			],
			meta: { page: 1, per_page: 25, total: 3 },
		});
		expect((await sandbox.api.get(`/products/${product.id}`)).data.data.stock_total).toBe(40);
	});

	it('answers 404 for an unknown product', async () => {
		expect((await sandbox.api.get('/products/9/stock')).status).toBe(404);
	});
});

describe('GET /products filters and sort', () => {
	async function catalog(): Promise<Product[]> {
		const chair = await createProduct(sandbox.api, { sku: 'OFF-200', name: 'Office Chair', low_stock_threshold: 10 });
		const desk = await createProduct(sandbox.api, { sku: 'OFF-100', name: 'Standing Desk', low_stock_threshold: 5 });
		const bolt = await createProduct(sandbox.api, { sku: 'HWR-001', name: 'Hex Bolt M8', active: false, low_stock_threshold: 0 });
		await sandbox.admin.setStock({ product_id: desk.id, warehouse_id: 1, quantity: 5 });
		return [chair, desk, bolt];
	}
	const ids = async (query: string) => (await sandbox.api.get(`/products?${query}`)).data.data.map((p: Product) => p.id);

	it('search matches name or SKU, case-insensitively; sku is exact', async () => {
		const [chair, desk, bolt] = await catalog();
		expect(await ids('search=chair')).toEqual([chair.id]);
		expect(await ids('search=off-')).toEqual([chair.id, desk.id]);
		expect(await ids('sku=HWR-001')).toEqual([bolt.id]);
		expect(await ids('sku=hwr-001')).toEqual([]);
	});

	it('active and low_stock (total below threshold)', async () => {
		const [chair, desk, bolt] = await catalog();
		expect(await ids('active=false')).toEqual([bolt.id]);
		expect(await ids('active=true')).toEqual([chair.id, desk.id]);
		expect(await ids('low_stock=true')).toEqual([chair.id]);
		expect(await ids('low_stock=false')).toEqual([desk.id, bolt.id]);
	});

	it('sorts by sku', async () => {
		const [chair, desk, bolt] = await catalog();
		expect(await ids('sort=sku')).toEqual([bolt.id, desk.id, chair.id]);
		expect(await ids('sort=-sku')).toEqual([chair.id, desk.id, bolt.id]);
	});

	it.each(['active=yes', 'low_stock=1', 'sort=name'])('answers 400 for %s', async (query) => {
		expect((await sandbox.api.get(`/products?${query}`)).status).toBe(400);
	});
});
