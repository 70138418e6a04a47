import type { Order } from '../../sandbox/extensions/orders';
import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createOrder, ISO_MS } from './fixtures';

// The orders extension (sandbox/extensions/): endpoints the API document does not list, held to its rules.
const sandbox = useTestSandbox({ extensions: ['orders'] });

const LINE = { sku: 'OFF-00012', description: 'Ergonomic Office Chair', quantity: 2, unit_price: 124.95 };

/** Every order the sandbox holds, as its admin route shows them (id order, no paging). */
const stored = () => sandbox.admin.records('orders');

describe('POST /orders', () => {
	it('creates with the defaults, numbering the lines, and GET /orders/{id} answers the same order', async () => {
		const response = await sandbox.api.post('/orders', { reference: ' SO-1001 ', customer: 'Nordwind GmbH', total: 249.9, lines: [LINE] });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: 1,
				reference: 'SO-1001',
				customer: 'Nordwind GmbH',
				status: 'open',
				currency: 'EUR',
				total: 249.9,
				lines: [{ line: 1, ...LINE }],
				notes: null,
				custom_fields: {},
				created_at: expect.stringMatching(ISO_MS),
				updated_at: response.data.data.created_at,
			},
		});
		expect((await sandbox.api.get('/orders/1')).data).toEqual({ success: true, data: response.data.data });
		expect(await stored()).toEqual([response.data.data]);
	});

	it.each([
		['reference, customer and total missing', {}, { reference: ['is required'], customer: ['is required'], total: ['is required'] }],
		['an empty reference', { reference: '  ', customer: 'A', total: 1 }, { reference: ['is required'] }],
		['a negative total', { reference: 'R', customer: 'A', total: -1 }, { total: ['must be at least 0'] }],
		['a total as a string', { reference: 'R', customer: 'A', total: '12' }, { total: ['must be a number'] }],
		['a total with 3 decimals', { reference: 'R', customer: 'A', total: 9.999 }, { total: ['must have at most 2 decimals'] }],
		['an unknown status', { reference: 'R', customer: 'A', total: 1, status: 'lost' }, { status: ['must be one of: open, confirmed, shipped, delivered, cancelled'] }],
		['lines not a list', { reference: 'R', customer: 'A', total: 1, lines: { description: 'x' } }, { lines: ['must be a list of lines'] }],
		['a line not an object', { reference: 'R', customer: 'A', total: 1, lines: ['x'] }, { 'lines[0]': ['must be an object'] }],
		['a line without price', { reference: 'R', customer: 'A', total: 1, lines: [{ description: 'x', quantity: 0 }] }, { 'lines[0].quantity': ['must be greater than 0'], 'lines[0].unit_price': ['is required'] }],
	])('answers 422 with the field messages for %s, storing nothing', async (_name, body, fields) => {
		const response = await sandbox.api.post('/orders', body);
		expect(response.status).toBe(422);
		expect(response.data).toEqual({ success: false, error: { code: 'validation_failed', message: expect.stringMatching(/^Validation failed: /), fields } });
		expect(await stored()).toEqual([]);
	});

	it('answers 422 for a reference another order has, naming that order', async () => {
		const first = await createOrder(sandbox.api, { reference: 'SO-7' });
		const response = await sandbox.api.post('/orders', { reference: 'SO-7', customer: 'Another', total: 1 });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ reference: [`is already taken by order ${first.id}`] });
		expect(response.data.error.message).toBe(`Validation failed: reference is already taken by order ${first.id}`);
		expect(await stored()).toEqual([first]);
	});
});

describe('PUT and PATCH /orders/{id}', () => {
	it('PUT changes only the fields sent, touching updated_at only when a value changed', async () => {
		const order = await createOrder(sandbox.api, { custom_fields: { channel: 'web' } });
		await new Promise((resolve) => setTimeout(resolve, 5));
		const same = await sandbox.api.put(`/orders/${order.id}`, { customer: order.customer });
		expect(same.data.data).toEqual(order);
		const changed = await sandbox.api.put(`/orders/${order.id}`, { status: 'shipped', custom_fields: { carrier: 'DHL' } });
		expect(changed.status).toBe(200);
		expect(changed.data.data).toEqual({ ...order, status: 'shipped', custom_fields: { channel: 'web', carrier: 'DHL' }, updated_at: expect.stringMatching(ISO_MS) });
		expect(changed.data.data.updated_at > order.updated_at).toBe(true);
		expect(await stored()).toEqual([changed.data.data]);
	});

	it('PATCH changes only the fields sent too; lines are replaced as a whole, null clears them', async () => {
		const order = await createOrder(sandbox.api, { lines: [LINE, { ...LINE, sku: null, description: 'Delivery' }] });
		const patched = await sandbox.api.patch(`/orders/${order.id}`, { lines: [{ description: 'Desk', unit_price: 300 }], total: 300 });
		expect(patched.status).toBe(200);
		expect(patched.data.data).toMatchObject({ reference: order.reference, total: 300, lines: [{ line: 1, sku: null, description: 'Desk', quantity: 1, unit_price: 300 }] });
		expect((await sandbox.api.patch(`/orders/${order.id}`, { lines: null })).data.data.lines).toEqual([]);
	});

	it.each(['PUT', 'PATCH'])('%s keeps the order its own reference and refuses another order\'s, an empty body and an unknown id', async (method) => {
		const [a, b] = [await createOrder(sandbox.api, { reference: 'A-1' }), await createOrder(sandbox.api, { reference: 'B-1' })];
		const call = (id: number, data: object) => sandbox.api.request({ method, url: `/orders/${id}`, data });
		expect((await call(a.id, { reference: 'A-1', notes: 'Urgent' })).status).toBe(200);
		const taken = await call(a.id, { reference: 'B-1' });
		expect(taken.status).toBe(422);
		expect(taken.data.error.fields).toEqual({ reference: [`is already taken by order ${b.id}`] });
		expect((await call(a.id, {})).data.error.fields).toEqual({ body: ['no fields to update'] });
		expect((await call(a.id, { total: null, status: '' })).data.error.fields).toEqual({ total: ['is required'], status: ['cannot be empty'] });
		expect((await call(99, { notes: 'x' })).status).toBe(404);
		expect((await stored()).map((o) => [o.reference, o.notes])).toEqual([['A-1', 'Urgent'], ['B-1', null]]);
	});
});

describe('DELETE /orders/{id}', () => {
	it('deletes for good: 200 {id, deleted}, then 404, gone from the list, its id never reused', async () => {
		const [first, second] = [await createOrder(sandbox.api, { reference: 'R1' }), await createOrder(sandbox.api, { reference: 'R2' })];
		const response = await sandbox.api.delete(`/orders/${second.id}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({ success: true, data: { id: second.id, deleted: true } });
		expect((await sandbox.api.get(`/orders/${second.id}`)).status).toBe(404);
		expect((await sandbox.api.delete(`/orders/${second.id}`)).data).toEqual({ success: false, error: { code: 'not_found', message: `Order ${second.id} not found` } });
		expect((await sandbox.api.get('/orders')).data.data).toEqual([first]);
		expect((await createOrder(sandbox.api, { reference: 'R2' })).id).toBe(second.id + 1);
	});
});

describe('GET /orders', () => {
	it('pages in meta like every list: 25 by default, per_page capped at 100, a page past the end empty', async () => {
		await sandbox.admin.seed({ orders: 130 });
		const all = await stored();
		const first = await sandbox.api.get('/orders');
		expect(first.data.meta).toEqual({ page: 1, per_page: 25, total: 130 });
		expect(first.data.data).toEqual(all.slice(0, 25));
		const capped = await sandbox.api.get('/orders?per_page=500&page=2');
		expect(capped.data.meta).toEqual({ page: 2, per_page: 100, total: 130 });
		expect(capped.data.data).toEqual(all.slice(100));
		expect((await sandbox.api.get('/orders?page=9')).data).toEqual({ success: true, data: [], meta: { page: 9, per_page: 25, total: 130 } });
		expect((await sandbox.api.get('/orders?per_page=0')).status).toBe(400);
	});

	it('filters by reference, status, customer, search and updated_after', async () => {
		const a = await createOrder(sandbox.api, { reference: 'SO-1', customer: 'Alpine Foods AG' });
		const b = await createOrder(sandbox.api, { reference: 'SO-2', customer: 'Cedar Labs Ltd', status: 'shipped' });
		const c = await createOrder(sandbox.api, { reference: 'WEB-3', customer: 'Alpine Foods AG', status: 'shipped' });
		const ids = async (query: string) => (await sandbox.api.get(`/orders?${query}`)).data.data.map((o: Order) => o.id);
		expect(await ids('reference=SO-2')).toEqual([b.id]);
		expect(await ids('reference=so-2')).toEqual([]);
		expect(await ids('status=shipped')).toEqual([b.id, c.id]);
		expect(await ids('customer=Alpine%20Foods%20AG&status=shipped')).toEqual([c.id]);
		expect(await ids('search=so-')).toEqual([a.id, b.id]);
		expect(await ids('search=cedar')).toEqual([b.id]);
		await new Promise((resolve) => setTimeout(resolve, 5));
		const { updated_at: touched } = (await sandbox.api.patch(`/orders/${a.id}`, { status: 'confirmed' })).data.data as Order;
		expect(await ids(`updated_after=${encodeURIComponent(c.updated_at)}`)).toEqual([a.id]);
		expect(await ids(`updated_after=${encodeURIComponent(touched)}`)).toEqual([]);
		expect((await sandbox.api.get('/orders?updated_after=yesterday')).status).toBe(400);
	});

	it('sorts by id, created_at, updated_at and reference, descending with -; another field is a 400', async () => {
		const orders = [await createOrder(sandbox.api, { reference: 'C' }), await createOrder(sandbox.api, { reference: 'A' }), await createOrder(sandbox.api, { reference: 'B' })];
		await new Promise((resolve) => setTimeout(resolve, 5));
		await sandbox.api.patch(`/orders/${orders[0].id}`, { notes: 'changed last' });
		const references = async (sort: string) => (await sandbox.api.get(`/orders?sort=${sort}`)).data.data.map((o: Order) => o.reference);
		expect(await references('reference')).toEqual(['A', 'B', 'C']);
		expect(await references('-id')).toEqual(['B', 'A', 'C']);
		expect(await references('updated_at')).toEqual(['A', 'B', 'C']);
		expect(await references('-updated_at')).toEqual(['C', 'B', 'A']);
		const bad = await sandbox.api.get('/orders?sort=total');
		expect(bad.status).toBe(400);
		expect(bad.data.error.message).toBe('Query parameter sort must be one of id, created_at, updated_at, reference (prefix - for descending)');
	});
});

describe('GET /orders/{id}/lines', () => {
	it("pages an order's lines, each keyed by its position `line` (no id), and answers 404 for an unknown order", async () => {
		const lines = ['Chair', 'Desk', 'Lamp'].map((description, i) => ({ description, unit_price: 10 * (i + 1) }));
		const order = await createOrder(sandbox.api, { lines: lines as never });
		const page = await sandbox.api.get(`/orders/${order.id}/lines?per_page=2&page=2`);
		expect(page.data).toEqual({
			success: true,
			data: [{ line: 3, sku: null, description: 'Lamp', quantity: 1, unit_price: 30 }],
			meta: { page: 2, per_page: 2, total: 3 },
		});
		expect((await sandbox.api.get(`/orders/${order.id + 1}/lines`)).status).toBe(404);
	});
});

describe('seeded orders', () => {
	it('are realistic: unique references, a total that is the sum of the lines, updated no earlier than created', async () => {
		const seeded = await sandbox.admin.seed({ orders: 200, seed: 7 });
		expect(seeded).toEqual({ contacts: 0, invoices: 0, products: 0, employees: 0, orders: 200 });
		const orders = await stored();
		expect(orders.map((o) => o.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
		expect(new Set(orders.map((o) => o.reference)).size).toBe(200);
		expect(new Set(orders.map((o) => o.status))).toEqual(new Set(['open', 'confirmed', 'shipped', 'delivered', 'cancelled']));
		for (const order of orders) {
			const sum = order.lines.reduce((total, line) => total + line.quantity * line.unit_price, 0);
			expect(order.total).toBeCloseTo(sum, 2);
			expect(order.lines.map((line) => line.line)).toEqual(order.lines.map((_, i) => i + 1));
			expect(order.updated_at >= order.created_at).toBe(true);
		}
		await sandbox.admin.reset();
		await sandbox.admin.seed({ orders: 200, seed: 7 });
		expect(await stored()).toEqual(orders);
	});

	it('continue after existing orders and never take a reference already used', async () => {
		await createOrder(sandbox.api, { reference: 'SO-000002' });
		await sandbox.admin.seed({ orders: 3 });
		expect((await stored()).map((o) => o.reference)).toEqual(['SO-000002', 'SO-000002X', 'SO-000003', 'SO-000004']);
	});
});
