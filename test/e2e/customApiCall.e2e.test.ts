import type { INodePropertyOptions } from 'n8n-workflow';

import type { Order } from '../../sandbox/extensions/orders';
import type { FaultSpec } from '../../sandbox/faults';
import { erpApi } from '../../tooling/host/erpApi';
import { allExecutions, waitForExecutions } from '../../tooling/host/executions';
import { runErp, type ErpRun } from '../../tooling/host/runErp';
import { useSession } from './setup/session';
import { ERP_NODE_TYPE } from '../../tooling/host/workflows';

// Custom API Call in a real n8n, against the sandbox's orders extension (endpoints the API document does not list).

const call = (method: string, path: string, extra: Record<string, unknown> = {}) => ({ resource: 'customApiCall', operation: 'call', method, path, ...extra });
const order = (reference: string) => JSON.stringify({ reference, customer: 'Nordwind GmbH', total: 99.5 });

describe('Custom API Call in a real n8n', () => {
	const session = useSession();
	const runs: ErpRun[] = [];
	const run = async (parameters: Record<string, unknown>) => {
		const result = await runErp(session, parameters);
		runs.push(result);
		return result;
	};
	const errorOf = async (result: ErpRun) => (await waitForExecutions(session.n8n, result.workflowId))[0].data?.resultData.error;
	const withReference = async (reference: string) => (await session.sandbox.records('orders')).filter((o) => o.reference === reference);
	const postsIn = (result: ErpRun) => result.requests.filter((r) => r.method === 'POST').map((r) => `${r.path} ${String(r.status)}`);

	afterEach(async () => {
		await session.sandbox.resetVariants();
		await session.sandbox.clearFaultQueue();
	});

	test('n8n offers it once: one Custom API Call in the Resource list, and n8n adds none of its own to any list', async () => {
		const erp = (await session.n8n.nodeTypes()).filter((t) => t.name === ERP_NODE_TYPE);
		expect(erp.length).toBeGreaterThan(0);
		for (const type of erp) {
			const lists = type.properties.filter((p) => ['resource', 'operation'].includes(p.name)).map((p) => (p.options ?? []) as INodePropertyOptions[]);
			const resource = type.properties.find((p) => p.name === 'resource')?.options as INodePropertyOptions[];
			expect(resource.filter((o) => o.name === 'Custom API Call')).toEqual([expect.objectContaining({ value: 'customApiCall' })]);
			expect(lists.flat().filter((o) => o.value === '__CUSTOM_API_CALL__')).toEqual([]);
		}
	});

	test('GET /orders, Return All under a capped page size: several pages, every order once, as the ERP holds them', async () => {
		await session.sandbox.setVariants(['small-pages']);
		const result = await run(call('GET', '/orders', { returnAll: true }));
		const stored = await session.sandbox.records('orders');

		expect(result.status).toBe(200);
		expect(stored.length).toBeGreaterThan(40);
		expect(result.items).toEqual(stored);
		const pages = result.requests.filter((r) => r.query.page !== undefined);
		expect(pages.length).toBeGreaterThanOrEqual(3);
		expect(result.requests.every((r) => r.method === 'GET' && r.path === '/orders' && r.status === 200)).toBe(true);
	});

	test('a POST answered 429 and then 201 creates one order; one whose answer is dropped is not sent again: without a Key Field the error says so, with one it is settled by the lookup', async () => {
		const fault = (spec: FaultSpec) => session.sandbox.queueFault({ match: { method: 'POST', path: '/orders' }, fault: spec });
		await fault({ kind: 'rateLimit', retryAfter: 1 });
		const limited = await run(call('POST', '/orders', { body: order('E2E-429') }));
		await fault({ kind: 'drop', afterCommit: true });
		const dropped = await run(call('POST', '/orders', { body: order('E2E-DROP-1') }));
		await fault({ kind: 'drop', afterCommit: true });
		const keyed = await run(call('POST', '/orders', { body: order('E2E-DROP-2'), keyField: 'reference' }));

		expect([limited.status, dropped.status, keyed.status]).toEqual([200, 500, 200]);
		expect(postsIn(limited)).toEqual(['/orders 429', '/orders 201']);
		const [once] = await withReference('E2E-429');
		expect(limited.items).toEqual([once]);
		expect(postsIn(dropped)).toEqual(['/orders null']);
		const error = await errorOf(dropped);
		expect(error?.description).toMatch(/The ERP may have done it anyway\. The node does not send a POST again after such a failure/);
		expect(error?.description).toMatch(/set Key Field so that the node can look the record up/);
		expect(postsIn(keyed)).toEqual(['/orders null']);
		const [settled] = await withReference('E2E-DROP-2');
		expect(keyed.items).toEqual([{ ...settled, recovered: true }]);
		expect(keyed.requests.filter((r) => r.method === 'GET').map((r) => r.query.reference)).toEqual(['E2E-DROP-2', 'E2E-DROP-2']);
		for (const reference of ['E2E-429', 'E2E-DROP-1', 'E2E-DROP-2']) expect({ reference, stored: (await withReference(reference)).length }).toEqual({ reference, stored: 1 });
	});

	test.each(['https://evil.example/api/v1/orders', '/orders/../contacts', '/orders/%2e%2e/contacts', '//evil.example/orders'])(
		'the path %s is refused with no request sent',
		async (path) => {
			const result = await run(call('GET', path));

			expect(result.status).toBe(500);
			expect(result.requests).toEqual([]);
			expect((await errorOf(result))?.message).toMatch(/^Path ".*" (is a full URL|contains a \. or \.\. segment|starts with \/\/).*: nothing was sent$/);
		},
	);

	test("a 422 shows the ERP's field message", async () => {
		const taken = await erpApi<Order>(session.ctx, 'POST', '/orders', JSON.parse(order('E2E-422')) as object);
		const result = await run(call('POST', '/orders', { body: order('E2E-422') }));

		expect(postsIn(result)).toEqual(['/orders 422']);
		expect((await errorOf(result))?.message).toBe(`The ERP refused to POST /orders (422): reference: is already taken by order ${taken.id}`);
		expect(await withReference('E2E-422')).toHaveLength(1);
	});

	test('the token appears in no output or error of these runs', async () => {
		expect(runs.length).toBeGreaterThan(5);
		for (const result of runs) {
			expect(JSON.stringify(result.body)).not.toContain(session.ctx.token);
			const executions = await allExecutions(session.n8n, result.workflowId, true);
			expect(executions.length).toBeGreaterThan(0);
			expect(JSON.stringify(executions)).not.toContain(session.ctx.token);
		}
	});
});
