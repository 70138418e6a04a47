import axios from 'axios';

import { parseArgs } from '../../sandbox/cli';
import type { Order } from '../../sandbox/extensions/orders';
import { useTestSandbox, startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createOrder, ISO_MS } from './fixtures';

describe("the orders extension held to the API document's rules", () => {
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
});

// The orders extension takes part in all the sandbox does around the API: auth, rate limit, faults, the request
// log, the admin routes and the variants. Faults and the log work by route whatever the resource (faults.test.ts,
// admin.test.ts), and the node's Custom API Call tests fault POST, PATCH, PUT and DELETE /orders: below are the
// tokens, the admin routes, the variants and the shared rate window. A sandbox started without it is the API
// document alone.

const ORDER = { reference: 'SO-1001', customer: 'Nordwind GmbH', total: 249.9 };

describe('a sandbox without the extension', () => {
	const plain = useTestSandbox();

	it('answers every orders route 404, as the API document has none', async () => {
		const answers = await Promise.all([
			plain.api.get('/orders'),
			plain.api.post('/orders', ORDER),
			plain.api.get('/orders/1'),
			plain.api.patch('/orders/1', { notes: 'x' }),
			plain.api.get('/orders/1/lines'),
		]);
		for (const response of answers) expect(response.data).toEqual({ success: false, error: { code: 'not_found', message: expect.stringMatching(/^No route /) } });
		expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
	});

	it('refuses to seed orders (seeding nothing) and has no orders records', async () => {
		const seed = await axios.post(`${plain.url}/__sandbox/seed`, { contacts: 2, orders: 5 }, { validateStatus: () => true });
		expect(seed.status).toBe(422);
		expect(seed.data.error.fields).toEqual({ orders: [expect.stringContaining('extension')] });
		expect(await plain.admin.records('contacts')).toEqual([]);
		const records = await axios.get(`${plain.url}/__sandbox/records/orders`, { validateStatus: () => true });
		expect(records.status).toBe(404);
		expect(records.data.error.message).toBe('Unknown resource orders: one of contacts, invoices, products, employees, stock, payroll');
	});

	it('cannot start with an unknown extension', async () => {
		await expect(startTestSandbox({ extensions: ['suppliers' as never] })).rejects.toThrow('unknown extension suppliers: one of orders');
	});
});

describe('a sandbox with the orders extension', () => {
	const sandbox = useTestSandbox({ extensions: ['orders'] });
	const as = (token?: string) =>
		axios.create({ baseURL: sandbox.baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {}, validateStatus: () => true });

	describe('tokens', () => {
		it('answers 401 without a valid token, lets the read-only token read and refuses it every write with 403', async () => {
			const order = await createOrder(sandbox.api);
			for (const client of [as(), as('not-the-token')]) {
				const response = await client.get('/orders');
				expect(response.status).toBe(401);
				expect(response.headers['www-authenticate']).toBe('Bearer');
			}
			const readOnly = as(sandbox.readOnlyToken);
			expect((await readOnly.get(`/orders/${order.id}`)).data.data).toEqual(order);
			const writes = await Promise.all([
				readOnly.post('/orders', { ...ORDER, reference: 'SO-2' }),
				readOnly.put(`/orders/${order.id}`, { notes: 'x' }),
				readOnly.patch(`/orders/${order.id}`, { notes: 'x' }),
				readOnly.delete(`/orders/${order.id}`),
			]);
			expect(writes.map((r) => [r.status, r.data.error.code])).toEqual(Array(4).fill([403, 'forbidden']));
			expect(await sandbox.admin.records('orders')).toEqual([order]);
			expect((await sandbox.admin.requests()).map((r) => r.auth)).toEqual(['full', 'none', 'invalid', 'readonly', 'readonly', 'readonly', 'readonly', 'readonly']);
		});
	});

	describe('the admin routes', () => {
		it('seed orders beside the other resources, show them all in id order, and reset empties them with ids from 1', async () => {
			expect(await sandbox.admin.seed({ contacts: 2, orders: 40 })).toEqual({ contacts: 2, invoices: 0, products: 0, employees: 0, orders: 40 });
			const state = await sandbox.admin.records('orders');
			const pages: Order[] = [];
			for (let page = 1; page <= 3; page++) pages.push(...(await sandbox.api.get(`/orders?page=${page}&per_page=15`)).data.data);
			expect(pages).toEqual(state);
			expect(await sandbox.admin.record('orders', 40)).toEqual(state[39]);
			await sandbox.admin.reset();
			expect(await sandbox.admin.records('orders')).toEqual([]);
			expect((await createOrder(sandbox.api)).id).toBe(1);
		});

		it('seed orders at start (an option, or --extension orders --seed-orders N on the command line)', async () => {
			expect(parseArgs(['--extension', 'orders', '--seed-orders', '12'])).toEqual({ port: 4010, extensions: ['orders'], seed: { orders: 12 } });
			expect(() => parseArgs(['--extension', 'suppliers'])).toThrow('unknown extension suppliers');
			const started = await startTestSandbox({ extensions: ['orders'], seed: { orders: 12 } });
			try {
				expect(await started.admin.records('orders')).toHaveLength(12);
			} finally {
				await started.close();
			}
		});
	});

	describe('variants', () => {
		beforeEach(() => sandbox.admin.seed({ orders: 45 }));
		const meta = async (query: string) => {
			const response = await sandbox.api.get(`/orders?${query}`);
			return response.status === 200 ? response.data.meta : response.data.error;
		};

		it('page-size policies: capped (small-pages), refused (strict-paging, -400), fixed pages, no total', async () => {
			await sandbox.admin.setVariants(['small-pages']);
			expect(await meta('per_page=100')).toEqual({ page: 1, per_page: 20, total: 45 });
			expect(await meta('')).toEqual({ page: 1, per_page: 10, total: 45 });
			await sandbox.admin.setVariants(['strict-paging']);
			expect(await meta('per_page=51')).toMatchObject({ fields: { per_page: ['must be at most 50'] } });
			await sandbox.admin.setVariants(['strict-paging-400']);
			expect(await meta('per_page=51')).toEqual({ code: 'bad_request', message: 'per_page must be between 1 and 50' });
			await sandbox.admin.setVariants(['fixed-pages', 'no-total']);
			expect(await meta('per_page=5&page=2')).toEqual({ page: 2, per_page: 25 });
			expect((await sandbox.api.get('/orders?page=2')).data.data).toHaveLength(20);
		});

		it('page-ignored, newest-first and ignored-filters shape the list as for the document\'s lists', async () => {
			const state = await sandbox.admin.records('orders');
			await sandbox.admin.setVariants(['page-ignored']);
			const ignored = (await sandbox.api.get('/orders?page=3&per_page=10')).data;
			expect([ignored.meta, ignored.data]).toEqual([{ page: 3, per_page: 10, total: 45 }, state.slice(0, 10)]);
			await sandbox.admin.setVariants(['newest-first', 'ignored-filters']);
			const newest = (await sandbox.api.get(`/orders?per_page=3&reference=${state[0].reference}`)).data.data as Order[];
			expect(newest.map((o) => o.id)).toEqual([45, 44, 43]);
		});

		it('writes: replace-put on PUT only (PATCH stays partial), bare-create, created-200, delete-204 and soft-delete', async () => {
			await sandbox.admin.reset();
			await sandbox.admin.setVariants(['replace-put', 'bare-create', 'created-200']);
			const bare = await sandbox.api.post('/orders', { ...ORDER, notes: 'Gate 4' });
			expect([bare.status, bare.data, bare.headers.location]).toEqual([200, { success: true }, '/api/v1/orders/1']);
			expect((await sandbox.api.patch('/orders/1', { status: 'confirmed' })).data.data).toMatchObject({ notes: 'Gate 4', status: 'confirmed' });
			expect((await sandbox.api.put('/orders/1', { notes: 'x' })).data.error.fields).toEqual({ reference: ['is required'], customer: ['is required'], total: ['is required'] });
			expect((await sandbox.api.put('/orders/1', ORDER)).data.data).toMatchObject({ ...ORDER, notes: null, status: 'open', lines: [] });
			await sandbox.admin.setVariants(['delete-204']);
			const gone = await sandbox.api.delete('/orders/1', { responseType: 'text' });
			expect([gone.status, gone.data]).toEqual([204, '']);
			await createOrder(sandbox.api, { reference: 'SO-2' });
			await sandbox.admin.setVariants(['soft-delete']);
			expect((await sandbox.api.delete('/orders/2')).data.data).toMatchObject({ id: 2, reference: 'SO-2', deleted_at: expect.any(String) });
			expect((await sandbox.api.get('/orders/2')).status).toBe(404);
		});

		it('error formats, rule sets and timestamp forms apply to orders', async () => {
			await sandbox.admin.setVariants(['problem-json']);
			const problem = await sandbox.api.post('/orders', {});
			expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
			expect(problem.data.errors).toEqual(expect.arrayContaining([{ field: 'reference', message: 'is required' }]));
			await sandbox.admin.setVariants(['success-false-200']);
			const refused = await sandbox.api.post('/orders', { ...ORDER, reference: 'SO-000001' });
			expect([refused.status, refused.data.error.fields]).toEqual([200, { reference: ['is already taken by order 1'] }]);
			await sandbox.admin.setVariants(['tight-rules']);
			expect((await sandbox.api.post('/orders', { ...ORDER, reference: 'R'.repeat(21) })).data.error.fields).toEqual({ reference: ['must be at most 20 characters'] });
			await sandbox.admin.setVariants(['lenient-rules']);
			const lenient = await sandbox.api.post('/orders', { ...ORDER, status: 'on_hold', currency: 'usdt', total: 0.125 });
			expect(lenient.data.data).toMatchObject({ status: 'on_hold', currency: 'usdt', total: 0.125 });
			await sandbox.admin.setVariants(['offset-timestamps']);
			const offset = (await sandbox.api.get(`/orders/${lenient.data.data.id}`)).data.data;
			expect([offset.created_at, offset.updated_at]).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/), expect.stringMatching(/\+00:00$/)]);
		});
	});
});

describe('the rate limit with the orders extension', () => {
	let sandbox: TestSandbox;
	beforeEach(async () => {
		sandbox = await startTestSandbox({ extensions: ['orders'], rateLimit: { limit: 3, windowMs: 60_000 } });
	});
	afterEach(() => sandbox.close());

	it("counts orders requests in the token's one window with the document's resources, and refuses with 429 unprocessed", async () => {
		const answers = [await sandbox.api.get('/contacts'), await sandbox.api.get('/orders'), await sandbox.api.post('/orders', ORDER)];
		expect(answers.map((r) => [r.status, r.headers['x-ratelimit-remaining']])).toEqual([[200, '2'], [200, '1'], [201, '0']]);
		const refused = await sandbox.api.post('/orders', { ...ORDER, reference: 'SO-2' });
		expect([refused.status, refused.data.error.code]).toEqual([429, 'rate_limited']);
		expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect((await sandbox.admin.records('orders')).map((o) => o.reference)).toEqual(['SO-1001']);
	});
});
