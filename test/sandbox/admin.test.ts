import axios from 'axios';

import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createProduct } from './fixtures';
import { startReceiver } from './receiver';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

const adminCall = (method: string, path: string, data?: unknown) =>
	axios.request({ method, url: `${sandbox.url}/__sandbox${path}`, data, validateStatus: () => true });

describe('reset', () => {
	it('empties the store and clears faults, logs, webhooks and deliveries', async () => {
		const receiver = await startReceiver();
		try {
			await sandbox.admin.seed({ contacts: 3, products: 2 });
			await sandbox.admin.addWebhook({ url: receiver.url });
			await createContact(sandbox.api);
			await sandbox.admin.setFaults({ latencyMs: 5, rateLimit: { limit: 100, windowMs: 1000 } });
			await sandbox.admin.queueFault({ fault: { kind: 'drop' } });
			expect(await sandbox.admin.reset()).toEqual({ reset: true });
			for (const resource of ['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const) {
				expect(await sandbox.admin.records(resource)).toEqual([]);
			}
			expect(await sandbox.admin.faults()).toMatchObject({ latencyMs: 0, rateLimit: null, queue: [] });
			expect(await sandbox.admin.requests()).toEqual([]);
			expect(await sandbox.admin.webhooks()).toEqual([]);
			expect(await sandbox.admin.deliveries()).toEqual([]);
			expect(await sandbox.admin.events()).toEqual([]);
			expect((await createContact(sandbox.api)).id).toBe(1);
		} finally {
			await receiver.close();
		}
	});
});

describe('requests log', () => {
	it('records method, path, query, body, status and auth of every /api/v1 request, in order', async () => {
		await sandbox.api.post('/contacts?source=crm', { first_name: 'Anna' });
		await sandbox.api.get('/contacts?page=2&per_page=10');
		await sandbox.api.post('/contacts', 'not json', { headers: { 'Content-Type': 'application/json' }, transformRequest: (d) => d });
		await sandbox.admin.records('contacts');
		const log = await sandbox.admin.requests();
		expect(log).toEqual([
			{ seq: 1, at: expect.any(String), method: 'POST', path: '/contacts', query: { source: 'crm' }, body: { first_name: 'Anna' }, status: 201, auth: 'full' },
			{ seq: 2, at: expect.any(String), method: 'GET', path: '/contacts', query: { page: '2', per_page: '10' }, body: null, status: 200, auth: 'full' },
			{ seq: 3, at: expect.any(String), method: 'POST', path: '/contacts', query: {}, body: 'not json', status: 400, auth: 'full' },
		]);
		expect((await sandbox.admin.requests(2)).map((e) => e.seq)).toEqual([3]);
		expect(await sandbox.admin.requests(3)).toEqual([]);
		await sandbox.admin.clearRequests();
		expect(await sandbox.admin.requests()).toEqual([]);
	});
});

describe('seed', () => {
	it('returns the counts created and continues ids after existing records', async () => {
		await createContact(sandbox.api);
		expect(await sandbox.admin.seed({ contacts: 10, invoices: 8, products: 4, employees: 3 })).toEqual({ contacts: 10, invoices: 8, products: 4, employees: 3 });
		const contacts = await sandbox.admin.records('contacts');
		expect(contacts.map((c) => c.id)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
		expect(await sandbox.admin.records('invoices')).toHaveLength(8);
		expect(await sandbox.admin.records('stock')).toHaveLength(12);
		expect((await sandbox.api.get('/products')).data.meta.total).toBe(4);
	});

	it('is deterministic for a seed and day, and differs for another seed', async () => {
		const options = { contacts: 20, invoices: 20, products: 10, employees: 10, seed: 42, today: '2026-06-15' };
		const snapshot = async () =>
			Promise.all((['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const).map((r) => sandbox.admin.records(r)));
		await sandbox.admin.seed(options);
		const first = await snapshot();
		await sandbox.admin.reset();
		await sandbox.admin.seed(options);
		expect(await snapshot()).toEqual(first);
		await sandbox.admin.reset();
		await sandbox.admin.seed({ ...options, seed: 43 });
		expect((await snapshot())[0]).not.toEqual(first[0]);
	});

	it('refuses invoices without contacts, and bad counts', async () => {
		const noContacts = await adminCall('POST', '/seed', { invoices: 5 });
		expect(noContacts.status).toBe(422);
		expect(noContacts.data.error.fields).toEqual({ invoices: [expect.any(String)] });
		expect((await adminCall('POST', '/seed', { contacts: -1 })).status).toBe(422);
		expect((await adminCall('POST', '/seed', { contacts: 'many' })).status).toBe(422);
		expect(await sandbox.admin.records('invoices')).toEqual([]);
	});

	it('seeds 20,000 contacts in one call', async () => {
		expect((await sandbox.admin.seed({ contacts: 20_000 })).contacts).toBe(20_000);
		expect((await sandbox.api.get('/contacts?per_page=1')).data.meta.total).toBe(20_000);
	});
});

describe('stock', () => {
	it('sets one warehouse, keeping reserved unless given and never above the quantity', async () => {
		const product = await createProduct(sandbox.api);
		const first = await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50, reserved: 20 });
		expect(first).toEqual({
			product_id: product.id,
			stock_total: 50,
			low_stock_threshold: 10,
			stock: expect.objectContaining({ warehouse_id: 1, warehouse_code: 'MAIN', quantity: 50, reserved: 20, available: 30 }),
		});
		const second = await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 12 });
		expect(second.stock).toMatchObject({ quantity: 12, reserved: 12, available: 0 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 3, quantity: 7 });
		expect((await sandbox.api.get(`/products/${product.id}`)).data.data.stock_total).toBe(19);
		const rows = await sandbox.admin.records('stock');
		expect(rows.map((r) => [r.product_id, r.warehouse_code, r.quantity])).toEqual([
			[product.id, 'MAIN', 12],
			[product.id, 'NORTH', 0],
			[product.id, 'SOUTH', 7],
		]);
	});

	it('answers 404 for an unknown product and 422 for bad values', async () => {
		const product = await createProduct(sandbox.api);
		expect((await adminCall('PUT', '/stock', { product_id: 99, warehouse_id: 1, quantity: 1 })).status).toBe(404);
		const bad = await adminCall('PUT', '/stock', { product_id: product.id, warehouse_id: 4, quantity: -1 });
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.data.error.fields).sort()).toEqual(['quantity', 'warehouse_id']);
	});
});

describe('routes', () => {
	it('answers 404 for an unknown admin route or resource, and 400 for a malformed body', async () => {
		expect((await adminCall('GET', '/nothing')).status).toBe(404);
		expect((await adminCall('GET', '/records/customers')).status).toBe(404);
		const malformed = await axios.post(`${sandbox.url}/__sandbox/seed`, '{oops', { headers: { 'Content-Type': 'application/json' }, validateStatus: () => true });
		expect(malformed.status).toBe(400);
	});

	it('answers {success: true, data} without auth', async () => {
		expect((await adminCall('GET', '/health')).data).toEqual({ success: true, data: { ok: true } });
	});
});
