import axios, { type AxiosResponse } from 'axios';

import { parseArgs } from '../../sandbox/cli';
import type { Order } from '../../sandbox/extensions/orders';
import { startTestSandbox, useTestSandbox, type VariantName } from '../../tooling/harness/sandbox';
import { createOrder, ISO_MS } from './fixtures';

// The orders extension (sandbox/extensions/): endpoints the API document does not list, held to its conventions.
// Custom API Call (test/nodes/Erp/operations/customApiCall.test.ts) and the polling trigger's any-list watch
// (test/nodes/ErpPollingTrigger/anyList.test.ts) read and write it through the nodes, against admin.records('orders').
// Its routes are behind the API's one token check (sandbox/api.ts): 401 and the read-only token's 403 in api.test.ts.

const ISO = expect.stringMatching(ISO_MS);
const ORDER = { reference: 'SO-1001', customer: 'Nordwind GmbH', total: 249.9 };
const LINE = { sku: 'OFF-12', description: 'Office Chair', quantity: 2, unit_price: 124.95 };
const invalid = (fields: object) => ({ success: false, error: { code: 'validation_failed', message: expect.stringMatching(/^Validation failed: /), fields } });
const notFound = (message: string | RegExp) => ({ success: false, error: { code: 'not_found', message: typeof message === 'string' ? message : expect.stringMatching(message) } });

describe('a sandbox with the orders extension', () => {
	const sandbox = useTestSandbox({ extensions: ['orders'] });
	const stored = () => sandbox.admin.records('orders');

	it('each endpoint answers its status and the envelope, in turn', async () => {
		const first = { id: 1, ...ORDER, status: 'open', currency: 'EUR', lines: [{ line: 1, ...LINE }], notes: null, custom_fields: {}, created_at: ISO, updated_at: ISO };
		const rows: Array<[string, string, object | undefined, number, unknown]> = [
			['POST', '/orders', { ...ORDER, reference: ' SO-1001 ', lines: [LINE], custom_fields: { channel: 'web' } }, 201, { success: true, data: { ...first, custom_fields: { channel: 'web' } } }],
			['POST', '/orders', { reference: 'SO-2', customer: 'B', total: 3, lines: [{ description: 'x' }, 'y'] }, 422, invalid({ 'lines[0].unit_price': ['is required'], 'lines[1]': ['must be an object'] })],
			['POST', '/orders', { reference: '  ', customer: 'A', total: '12', status: 'lost' }, 422, invalid({ reference: ['is required'], total: ['must be a number'], status: ['must be one of: open, confirmed, shipped, delivered, cancelled'] })],
			['POST', '/orders', { ...ORDER, customer: 'Other' }, 422, invalid({ reference: ['is already taken by order 1'] })],
			['POST', '/orders', { reference: 'SO-2', customer: 'B', total: 3, lines: [{ description: 'A', unit_price: 1 }, { description: 'B', unit_price: 2 }, { description: 'C', unit_price: 3 }] }, 201, expect.objectContaining({ data: expect.objectContaining({ id: 2 }) })],
			['GET', '/orders', undefined, 200, { success: true, data: expect.any(Array), meta: { page: 1, per_page: 25, total: 2 } }],
			['GET', '/orders/2/lines?per_page=2&page=2', undefined, 200, { success: true, data: [{ line: 3, sku: null, description: 'C', quantity: 1, unit_price: 3 }], meta: { page: 2, per_page: 2, total: 3 } }],
			['PUT', '/orders/1', { customer: ORDER.customer }, 200, { success: true, data: { ...first, custom_fields: { channel: 'web' } } }],
			['PUT', '/orders/1', { status: 'shipped', custom_fields: { carrier: 'DHL' } }, 200, { success: true, data: expect.objectContaining({ status: 'shipped', reference: 'SO-1001', custom_fields: { channel: 'web', carrier: 'DHL' } }) }],
			['PATCH', '/orders/2', { lines: [{ description: 'Desk', unit_price: 300 }], total: 300 }, 200, { success: true, data: expect.objectContaining({ total: 300, lines: [{ line: 1, sku: null, description: 'Desk', quantity: 1, unit_price: 300 }] }) }],
			['PATCH', '/orders/2', { lines: null }, 200, { success: true, data: expect.objectContaining({ lines: [] }) }],
			['PATCH', '/orders/2', { reference: 'SO-1001' }, 422, invalid({ reference: ['is already taken by order 1'] })],
			['PUT', '/orders/2', {}, 422, invalid({ body: ['no fields to update'] })],
			['PATCH', '/orders/2', { total: null, status: '' }, 422, invalid({ total: ['is required'], status: ['cannot be empty'] })],
			['DELETE', '/orders/2', undefined, 200, { success: true, data: { id: 2, deleted: true } }],
			['GET', '/orders/2', undefined, 404, notFound('Order 2 not found')],
			['PATCH', '/orders/99', { notes: 'x' }, 404, notFound('Order 99 not found')],
			['GET', '/orders/99/lines', undefined, 404, notFound(/Order 99/)],
			['GET', '/orders?sort=total', undefined, 400, { success: false, error: { code: 'bad_request', message: 'Query parameter sort must be one of id, created_at, updated_at, reference (prefix - for descending)' } }],
			['GET', '/orders?updated_after=yesterday', undefined, 400, expect.objectContaining({ success: false })],
		];
		for (const [method, url, data, status, answer] of rows) {
			const response = await sandbox.api.request({ method, url, data });
			expect([method, url, response.status, response.data]).toEqual([method, url, status, answer]);
		}
		expect((await stored()).map((o) => o.id)).toEqual([1]);
		expect((await createOrder(sandbox.api, { reference: 'SO-3' })).id).toBe(3);
	});

	it('PUT and PATCH touch updated_at only when a value changed', async () => {
		const order = await createOrder(sandbox.api);
		await new Promise((resolve) => setTimeout(resolve, 5));
		expect((await sandbox.api.patch(`/orders/${order.id}`, { customer: order.customer })).data.data.updated_at).toBe(order.updated_at);
		expect((await sandbox.api.put(`/orders/${order.id}`, { notes: 'x' })).data.data.updated_at > order.updated_at).toBe(true);
	});

	it('filters by reference (exact), status, customer, search and updated_after; sorts by reference and updated_at', async () => {
		const a = await createOrder(sandbox.api, { reference: 'SO-1', customer: 'Alpine Foods AG' });
		const b = await createOrder(sandbox.api, { reference: 'SO-2', customer: 'Cedar Labs Ltd', status: 'shipped' });
		const c = await createOrder(sandbox.api, { reference: 'WEB-3', customer: 'Alpine Foods AG', status: 'shipped' });
		await new Promise((resolve) => setTimeout(resolve, 5));
		await sandbox.api.patch(`/orders/${a.id}`, { notes: 'changed last' });
		const ids = async (query: string) => (await sandbox.api.get(`/orders?${query}`)).data.data.map((o: Order) => o.id);
		const table: Array<[string, number[]]> = [
			['reference=SO-2', [b.id]], ['reference=so-2', []], ['status=shipped', [b.id, c.id]], ['customer=Alpine%20Foods%20AG&status=shipped', [c.id]],
			['search=cedar', [b.id]], [`updated_after=${encodeURIComponent(c.updated_at)}`, [a.id]], ['sort=-reference', [c.id, b.id, a.id]], ['sort=-updated_at', [a.id, c.id, b.id]],
		];
		for (const [query, expected] of table) expect([query, await ids(query)]).toEqual([query, expected]);
	});

	it.each<[VariantName, string, (response: AxiosResponse) => unknown, unknown]>([
		['newest-first', '/orders', (r) => r.data.data.map((o: Order) => o.id), [2, 1]],
		['ignored-filters', '/orders?reference=A', (r) => r.data.meta.total, 2],
		['offset-timestamps', '/orders/1', (r) => r.data.data.created_at, expect.stringMatching(/\+00:00$/)],
	])('%s shapes GET %s as for the document\'s lists', async (variant, path, pick, expected) => {
		await createOrder(sandbox.api, { reference: 'A' });
		await createOrder(sandbox.api, { reference: 'B' });
		await sandbox.admin.setVariants([variant]);
		expect(pick(await sandbox.api.get(path))).toEqual(expected);
	});

	it('write variants: replace-put on PUT only (PATCH stays partial), bare-create, created-200, soft-delete, problem-json, tight-rules, lenient-rules', async () => {
		await sandbox.admin.setVariants(['replace-put', 'bare-create', 'created-200']);
		const bare = await sandbox.api.post('/orders', { ...ORDER, notes: 'Gate 4' });
		expect([bare.status, bare.data, bare.headers.location]).toEqual([200, { success: true }, '/api/v1/orders/1']);
		expect((await sandbox.api.patch('/orders/1', { status: 'confirmed' })).data.data).toMatchObject({ notes: 'Gate 4', status: 'confirmed' });
		expect((await sandbox.api.put('/orders/1', ORDER)).data.data).toMatchObject({ notes: null, status: 'open' });
		await sandbox.admin.setVariants(['soft-delete']);
		expect((await sandbox.api.delete('/orders/1')).data.data).toMatchObject({ id: 1, reference: ORDER.reference, deleted_at: ISO });
		await sandbox.admin.setVariants(['problem-json']);
		expect((await sandbox.api.post('/orders', {})).headers['content-type']).toMatch(/^application\/problem\+json/);
		await sandbox.admin.setVariants(['tight-rules']);
		expect((await sandbox.api.post('/orders', { ...ORDER, reference: 'R'.repeat(21) })).data.error.fields).toEqual({ reference: ['must be at most 20 characters'] });
		await sandbox.admin.setVariants(['lenient-rules']);
		expect((await sandbox.api.post('/orders', { ...ORDER, status: 'on_hold', total: 0.125 })).data.data).toMatchObject({ status: 'on_hold', total: 0.125 });
	});

	it('answers the read-only token 403 to PATCH, a write the document has no route for, changing nothing', async () => {
		const order = await createOrder(sandbox.api);
		const readOnly = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${sandbox.readOnlyToken}` }, validateStatus: () => true });
		expect((await readOnly.patch(`/orders/${order.id}`, { notes: 'x' })).status).toBe(403);
		expect(await stored()).toEqual([order]);
	});

	it('seeds realistic orders beside the others, the same for a seed, never reusing a reference; a reset empties them', async () => {
		await createOrder(sandbox.api, { reference: 'SO-000002' });
		expect(await sandbox.admin.seed({ contacts: 2, orders: 3 })).toEqual({ contacts: 2, invoices: 0, products: 0, employees: 0, orders: 3 });
		expect((await stored()).map((o) => o.reference)).toEqual(['SO-000002', 'SO-000002X', 'SO-000003', 'SO-000004']);
		await sandbox.admin.reset();
		await sandbox.admin.seed({ orders: 100, seed: 7 });
		const orders = await stored();
		expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['open', 'confirmed', 'shipped', 'delivered', 'cancelled']));
		for (const order of orders) expect(order.total).toBeCloseTo(order.lines.reduce((sum, line) => sum + line.quantity * line.unit_price, 0), 2);
		await sandbox.admin.reset();
		expect(await stored()).toEqual([]);
		await sandbox.admin.seed({ orders: 100, seed: 7 });
		expect(await stored()).toEqual(orders);
	});
});

describe('the orders extension chosen at start', () => {
	it('from the command line or the options; an unknown extension fails the start; its requests count in the one rate window', async () => {
		expect(parseArgs(['--extension', 'orders', '--seed-orders', '12'])).toEqual({ port: 4010, extensions: ['orders'], seed: { orders: 12 } });
		await expect(startTestSandbox({ extensions: ['suppliers' as never] })).rejects.toThrow('unknown extension suppliers: one of orders');
		const limited = await startTestSandbox({ extensions: ['orders'], seed: { orders: 12 }, rateLimit: { limit: 2, windowMs: 60_000 } });
		try {
			expect((await limited.api.get('/contacts')).status).toBe(200);
			expect((await limited.api.get('/orders')).data.meta.total).toBe(12);
			expect((await limited.api.post('/orders', ORDER)).status).toBe(429);
			expect(await limited.admin.records('orders')).toHaveLength(12);
		} finally {
			await limited.close();
		}
	});
});

describe('a sandbox without the extension (the API document alone)', () => {
	const plain = useTestSandbox();

	it('answers every orders route 404 and refuses to seed orders', async () => {
		const answers = await Promise.all([plain.api.get('/orders'), plain.api.post('/orders', ORDER), plain.api.patch('/orders/1', { notes: 'x' }), plain.api.get('/orders/1/lines')]);
		expect(answers.map((r) => [r.status, r.data])).toEqual(Array(4).fill([404, notFound(/^No route /)]));
		const seed = await axios.post(`${plain.url}/__sandbox/seed`, { contacts: 2, orders: 5 }, { validateStatus: () => true });
		expect([seed.status, seed.data.error.fields]).toEqual([422, { orders: [expect.stringContaining('extension')] }]);
		expect(await plain.admin.records('contacts')).toEqual([]);
	});
});
