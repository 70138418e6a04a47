import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RequestLogEntry } from '../../../../sandbox/requestLog';
import type { VariantName } from '../../../../tooling/harness/sandbox';
import type { RunNodeResult } from '../../../../tooling/harness/run-node';
import { createOrder } from '../../../sandbox/fixtures';
import { useScriptedErp } from '../transport/scriptedErp';
import { jsonOf, useErpHarness } from './setup';

// Resource Custom API Call against the sandbox's orders extension, endpoints the API document does not list: the
// ERP node inside n8n-core, the sandbox's request log and records as the witnesses.

const h = useErpHarness(undefined, { extensions: ['orders'] });

const call = (method: string, path: string, extra: INodeParameters = {}): INodeParameters => ({ resource: 'customApiCall', operation: 'call', method, path, ...extra });
const query = (parameters: Record<string, string>) => ({ parameter: Object.entries(parameters).map(([name, value]) => ({ name, value })) });
const order = (reference: string, extra: IDataObject = {}) => JSON.stringify({ reference, customer: 'Acme', total: 10, ...extra });
const lines = (log: RequestLogEntry[]) => log.map((r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query).toString()}` : ''} ${String(r.status)}`);
const descriptionOf = (result: RunNodeResult) => (result.error as { description?: string } | undefined)?.description;

describe('Custom API Call: GET', () => {
	// The paging rules themselves: ../transport/paginate.test.ts; here that Custom API Call's GET reads a list as Get Many does
	// (the first answer as sent, then the pages from the first: 'Limit beyond it' below).
	it.each<[string, VariantName, INodeParameters]>([
		['a page size the ERP caps at 20', 'small-pages', {}],
		['a page size the ERP refuses (422, learnt)', 'strict-paging', { pageSize: 80 }],
		['no total in meta', 'no-total', {}],
		['pages of a size of its own', 'fixed-pages', {}],
	])('Return All under %s: every record once', async (_what, variant, options) => {
		await h.sandbox.admin.seed({ orders: 130 });
		await h.sandbox.admin.setVariants([variant]);
		const result = await h.run(call('GET', '/orders', { returnAll: true, options }));
		expect(jsonOf(result).map((o) => o.id)).toEqual((await h.sandbox.admin.records('orders')).map((o) => o.id));
	});

	it('an ERP that ignores the page parameter is a clear error, not a short list', async () => {
		await h.sandbox.admin.seed({ orders: 150 });
		await h.sandbox.admin.setVariants(['page-ignored']);
		expect((await h.run(call('GET', '/orders', { returnAll: true }))).error?.message).toMatch(/seems to ignore the page parameter/);
	});

	it.each<[string, INodeParameters, (orders: Array<{ id: number; status: string }>) => unknown[], string[]]>([
		['Limit within the first answer: one request', { limit: 7 }, (orders) => orders.slice(0, 7), ['GET /orders 200']],
		['Limit beyond it: the pages up to the Limit', { limit: 40 }, (orders) => orders.slice(0, 40), ['GET /orders 200', 'GET /orders?page=1&per_page=40 200']],
		['a list that fits its first answer: one request, with the Query Parameters as given', { returnAll: true, queryParameters: query({ status: 'open' }) }, (orders) => orders.filter((o) => o.status === 'open'), ['GET /orders?status=open 200']],
		['Query Parameters naming page and per_page: that page alone', { returnAll: true, queryParameters: query({ page: '2', per_page: '10' }) }, (orders) => orders.slice(10, 20), ['GET /orders?page=2&per_page=10 200']],
		['Return As One Item: the records and their count in one item', { returnAll: true, queryParameters: query({ status: 'open' }), options: { returnAsOneItem: true } }, (orders) => [{ records: orders.filter((o) => o.status === 'open'), count: orders.filter((o) => o.status === 'open').length }], ['GET /orders?status=open 200']],
	])('%s', async (_what, parameters, expected, requests) => {
		await h.sandbox.admin.seed({ orders: 60 });
		await h.mark();
		const result = await h.run(call('GET', '/orders', parameters));
		expect(jsonOf(result)).toEqual(expected(await h.sandbox.admin.records('orders')));
		expect(lines(await h.requests())).toEqual(requests);
	});

	it('a record is one item; a list without ids (an order\'s lines) is one item per element', async () => {
		const created = (await h.sandbox.api.post('/orders', { reference: 'SO-1', customer: 'Acme', total: 380, lines: [{ description: 'Desk', unit_price: 200 }, { description: 'Chair', unit_price: 90, quantity: 2 }] })).data.data as { id: number };
		expect(jsonOf(await h.run(call('GET', `/orders/${created.id}`)))).toEqual([await h.sandbox.admin.record('orders', created.id)]);
		expect(jsonOf(await h.run(call('GET', `/orders/${created.id}/lines`)))).toEqual([
			{ line: 1, sku: null, description: 'Desk', quantity: 1, unit_price: 200 },
			{ line: 2, sku: null, description: 'Chair', quantity: 2, unit_price: 90 },
		]);
	});

	it('Full Response: one item with the status, the data and the paging meta of the one answer', async () => {
		await h.sandbox.admin.seed({ orders: 30 });
		await h.mark();
		const result = await h.run(call('GET', '/orders', { returnAll: true, options: { fullResponse: true } }));
		expect(jsonOf(result)).toEqual([
			{ statusCode: 200, data: (await h.sandbox.admin.records('orders')).slice(0, 25), meta: { page: 1, per_page: 25, total: 30 } },
		]);
		expect(await h.requests()).toHaveLength(1);
	});

	it('a 404 names the path first, and the ERP\'s words', async () => {
		const result = await h.run(call('GET', '/suppliers'));
		expect(result.error?.message).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:\d+\/api\/v1\/suppliers \(404\)$/);
		expect(descriptionOf(result)).toMatch(/^Check the Path: the ERP has nothing there/);
	});
});

describe('Custom API Call: writes', () => {
	it('POST creates the record and outputs it as the ERP answered, at node version 1 too (a resource 0.1.0 did not have)', async () => {
		const result = await h.run(call('POST', '/orders', { body: order('SO-1') }), { typeVersion: 1 });
		expect(jsonOf(result)).toEqual(await h.sandbox.admin.records('orders'));
		expect((await h.requests()).map((r) => r.body)).toEqual([{ reference: 'SO-1', customer: 'Acme', total: 10 }]);
	});

	it('PUT and PATCH change the fields sent; DELETE removes the record and outputs the ERP\'s answer', async () => {
		const created = await createOrder(h.sandbox.api);
		expect(jsonOf(await h.run(call('PUT', `/orders/${created.id}`, { body: '{"status": "confirmed"}' })))[0]).toMatchObject({ id: created.id, status: 'confirmed' });
		expect(jsonOf(await h.run(call('PATCH', `/orders/${created.id}`, { body: { notes: 'Ring twice' } })))[0]).toMatchObject({ status: 'confirmed', notes: 'Ring twice' });
		expect(jsonOf(await h.run(call('DELETE', `/orders/${created.id}`)))).toEqual([{ id: created.id, deleted: true }]);
		expect(await h.sandbox.admin.records('orders')).toEqual([]);
		// An empty answer is {success: true}.
		const again = await createOrder(h.sandbox.api);
		await h.sandbox.admin.setVariants(['delete-204']);
		expect(jsonOf(await h.run(call('DELETE', `/orders/${again.id}`)))).toEqual([{ success: true }]);
	});

	it("a 422 shows the ERP's field message; so does a success-false-200 refusal, whatever its status", async () => {
		const taken = await createOrder(h.sandbox.api, { reference: 'SO-1' });
		const result = await h.run(call('POST', '/orders', { body: order('SO-1') }));
		expect(result.error?.message).toBe(`The ERP refused to POST /orders (422): reference: is already taken by order ${taken.id}`);
		await h.sandbox.admin.setVariants(['success-false-200']);
		expect((await h.run(call('POST', '/orders', { body: order('SO-1') }))).error?.message).toMatch(/^The ERP refused to POST \/orders: reference: is already taken/);
		expect(await h.sandbox.admin.records('orders')).toHaveLength(1);
	});

	const drop = { kind: 'drop' as const, afterCommit: true };
	const unclear = { kind: 'status' as const, status: 503, afterCommit: false };
	it.each<[string, string, string | undefined, object, string[], IDataObject | RegExp]>([
		['a POST whose answer is lost after the ERP saved it, with Key Field: found by the lookup, sent once, marked recovered', 'POST', 'reference', drop, ['GET /orders?reference=SO-NEW&page=1&per_page=100 200', 'POST /orders null', 'GET /orders?reference=SO-NEW&page=1&per_page=100 200'], { reference: 'SO-NEW', recovered: true }],
		['a POST refused unclearly before the ERP saved anything, with Key Field: the lookup proves it, the POST goes again', 'POST', 'reference', unclear, ['GET /orders?reference=SO-NEW&page=1&per_page=100 200', 'POST /orders 503', 'GET /orders?reference=SO-NEW&page=1&per_page=100 200', 'POST /orders 201'], { reference: 'SO-NEW' }],
		['a POST whose answer is lost, without Key Field: sent once, and the error says why and what to do', 'POST', undefined, drop, ['POST /orders null'], /The ERP may have done it anyway\. The node does not send a POST again after such a failure.*set Key Field so that the node can look the record up/],
		['a PATCH whose answer is lost, without Key Field: not sent again, and the error says so', 'PATCH', undefined, { kind: 'status', status: 502, afterCommit: true }, ['PATCH /orders/ID 502'], /^The ERP may have done it anyway\. The node does not send a PATCH again after such a failure/],
		['a PATCH whose answer is lost after the ERP changed the record, with Key Field: the record at Path shows it done, sent once', 'PATCH', 'status', drop, ['PATCH /orders/ID null', 'GET /orders/ID 200'], { status: 'shipped', recovered: true }],
		['a PATCH refused unclearly before the ERP changed anything, with Key Field: the record at Path shows it, the PATCH goes again', 'PATCH', 'status', unclear, ['PATCH /orders/ID 503', 'GET /orders/ID 200', 'PATCH /orders/ID 200'], { status: 'shipped' }],
	])('%s', async (_what, method, keyField, fault, expected, outcome) => {
		const created = await createOrder(h.sandbox.api);
		await h.mark();
		await h.sandbox.admin.queueFault({ match: { method, path: '/orders' }, fault: fault as never });
		const write = method === 'POST' ? call('POST', '/orders', { body: order('SO-NEW') }) : call('PATCH', `/orders/${created.id}`, { body: '{"status": "shipped"}' });
		const result = await h.run({ ...write, ...(keyField ? { keyField } : {}) });
		expect(lines(await h.requests())).toEqual(expected.map((line) => line.replace('ID', String(created.id))));
		if (outcome instanceof RegExp) expect(descriptionOf(result)).toMatch(outcome);
		else expect([result.error, jsonOf(result)]).toEqual([undefined, [expect.objectContaining(outcome)]]);
		expect((await h.sandbox.admin.records('orders')).filter((o) => o.reference === 'SO-NEW')).toHaveLength(method === 'POST' ? 1 : 0);
	});

	it('Key Field with a value other records have too (customer): the new record is told apart by its ID', async () => {
		const earlier = await createOrder(h.sandbox.api, { reference: 'SO-0', customer: 'Acme' });
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/orders' }, fault: { kind: 'drop', afterCommit: true } });
		const result = await h.run(call('POST', '/orders', { body: order('SO-1'), keyField: 'customer' }));
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0]).toMatchObject({ reference: 'SO-1', customer: 'Acme', recovered: true });
		expect(jsonOf(result)[0].id).not.toBe(earlier.id);
		expect(await h.sandbox.admin.records('orders')).toHaveLength(2);
	});

	it('Key Field not in the Body: refused before any request', async () => {
		const result = await h.run(call('POST', '/orders', { body: '{"customer": "Acme", "total": 1}', keyField: 'reference' }));
		expect(result.error?.message).toBe('Body has no "reference" value, which Key Field names: nothing was sent');
		expect(await h.requests()).toEqual([]);
	});
});

describe('Custom API Call: what is refused before any request', () => {
	it.each([
		['https://evil.example/api/v1/orders', 'Path "https://evil.example/api/v1/orders" is a full URL, not a path below the Base URL: nothing was sent'],
		['  ', 'Path is empty: nothing was sent'],
	])('Path %j, read trimmed (every way out of the Base URL: pathProblem in ../pureRules.test.ts)', async (path, message) => {
		const result = await h.run(call('GET', path));
		expect(result.error?.message).toBe(message);
		expect(descriptionOf(result)).toBeTruthy();
		expect(await h.requests()).toEqual([]);
	});

	it.each([
		['not JSON', '{reference: SO-1}', 'Body is not valid JSON'],
		['a list', '[{"reference": "SO-1"}]', 'Body must be a JSON object such as {"reference": "SO-1001", "customer": "Acme"}'],
	])('a Body that is %s', async (_what, body, message) => {
		const result = await h.run(call('POST', '/orders', { body }));
		expect(result.error?.message).toMatch(new RegExp(`^${message.replace(/[{}[\]()]/g, '\\$&')}`));
		expect(await h.requests()).toEqual([]);
	});

	it('a query parameter named twice', async () => {
		const result = await h.run(call('GET', '/orders', { queryParameters: { parameter: [{ name: 'status', value: 'open' }, { name: 'status', value: 'shipped' }] } }));
		expect(result.error?.message).toBe('Query Parameters has "status" twice: keep one of them');
		expect(await h.requests()).toEqual([]);
	});

	it("n8n's own Custom API Call value (an n8n that offers it saves it) points at this resource", async () => {
		const result = await h.run({ resource: '__CUSTOM_API_CALL__', operation: '__CUSTOM_API_CALL__' }, { typeVersion: 1 });
		expect(result.error?.message).toMatch(/choose the node's Resource › Custom API Call/);
		expect(await h.requests()).toEqual([]);
	});
});

describe('Custom API Call as an AI tool', () => {
	const fromAi = (key: string, type = 'string') => `={{ $fromAI('${key}', 'what the model fills in', '${type}') }}`;

	it('takes Path, Query and Body from the model where the user put $fromAI', async () => {
		await h.sandbox.admin.seed({ orders: 5 });
		const result = await h.run(call('POST', fromAi('path'), { body: fromAi('body', 'json'), queryParameters: query({ notify: fromAi('notify') }) }), {
			asTool: true,
			input: [{ path: '/orders', body: { reference: 'SO-AI', customer: 'Acme', total: 5 }, notify: 'no' }],
		});
		expect(result.error).toBeUndefined();
		expect(lines(await h.requests())).toEqual(['POST /orders?notify=no 201']);
		expect(jsonOf(result)[0]).toMatchObject({ reference: 'SO-AI' });
	});

	it("refuses a model's path that leaves the Base URL, naming the argument, before any request", async () => {
		const result = await h.run(call('GET', fromAi('path')), { asTool: true, input: [{ path: '/../admin' }] });
		expect(result.error?.message).toBe('Path (argument "path") "/../admin" contains a . or .. segment, which would leave the Base URL\'s path: nothing was sent');
		expect(await h.requests()).toEqual([]);
	});

	it('reads at most the tool Limit of a list', async () => {
		await h.sandbox.admin.seed({ orders: 30 });
		expect(jsonOf(await h.run(call('GET', '/orders'), { asTool: true }))).toHaveLength(10);
	});
});

describe('Custom API Call: answers the sandbox does not give (a scripted ERP)', () => {
	const erp = useScriptedErp();
	const run = (parameters: INodeParameters) => h.run(parameters, { baseUrl: erp.baseUrl });

	it.each([
		['a bare JSON list, without the envelope', [{ id: 1 }, { id: 2 }]],
		['the envelope without meta', { success: true, data: [{ id: 1 }, { id: 2 }] }],
	])('a list answered as %s is taken as it comes, in one request', async (_what, body) => {
		erp.answer(() => ({ status: 200, body }));
		const result = await run(call('GET', '/suppliers', { returnAll: true }));
		expect(jsonOf(result)).toEqual([{ id: 1 }, { id: 2 }]);
		expect(erp.requests.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`)).toEqual(['GET /suppliers {}']);
	});

	it('values that are not records become items under data: a list of them, and a bare answer', async () => {
		erp.answer((request) => ({ status: 200, body: request.path === '/tags' ? { data: ['vip', 'b2b'] } : { success: true, data: 'queued' } }));
		expect(jsonOf(await run(call('GET', '/tags')))).toEqual([{ data: 'vip' }, { data: 'b2b' }]);
		expect(jsonOf(await run(call('POST', '/jobs/rebuild', { body: '{}' })))).toEqual([{ data: 'queued' }]);
	});

	it('a Key Field lookup that finds records without an ID cannot tell the new one: one POST, and the error says so', async () => {
		erp.answer((request) =>
			request.method === 'POST' ? { status: 502, body: '<html>Bad gateway</html>' } : { status: 200, body: { data: [{ reference: 'R1' }], meta: { page: 1, per_page: 100, total: 1 } } },
		);
		const result = await run(call('POST', '/orders', { body: order('R1'), keyField: 'reference' }));
		expect(erp.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET']);
		expect(descriptionOf(result)).toMatch(/A lookup by reference could not tell whether the ERP wrote it/);
	});
});
