import type { Execution, SavedWorkflow, WorkflowDefinition } from '../../tooling/host/types';
import { erpApi } from '../../tooling/host/erpApi';
import { allExecutions, atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { N8N_VERSION } from '../../tooling/host/install';
import { n8nLine } from '../../tooling/host/lines';
import { startOwnN8n, type OwnN8n } from '../../tooling/host/ownN8n';
import { waitFor } from '../../sandbox/adminClient';
import { useSession } from './setup/session';
import { ERP_POLLING_TRIGGER_NAME as TRIGGER, erpPollingTriggerNode } from '../../tooling/host/workflows';

/**
 * The ERP Polling Trigger in a real n8n, under each scheduler the line has: active workflows pick up changes made
 * through the ERP's API, each once; n8n stopped, changes made, n8n started again on the same user folder: all of
 * them reported once, nothing twice. Each step waits for the next poll, at the shortest interval the line accepts
 * (N8nLine.shortestPoll).
 * - classic: n8n's default; saves the memory after the activation's poll and with each execution a poll starts;
 * - durable (2.x): the durable scheduler with durable poll cursors, which saves the memory after every successful
 *   scheduled poll, not after the activation's unless it starts an execution, and backs failing polls off by the
 *   failure the node's error declares.
 */

const SCHEDULERS = {
	classic: {},
	durable: {
		N8N_SCHEDULER_ENABLED: 'true',
		N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
		N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
		// Durable cursors need the publication service; the host turns it off for the other tests.
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
		// The log lines the back-off tests read carry their details (cause, delay) only as JSON.
		N8N_LOG_FORMAT: 'json',
		// A poll's deadline lowered from 45 s, so that a test can run past it (the node's budget is then 10 s).
		N8N_SCHEDULER_POLL_TIMEOUT: '15',
	},
};
const line = n8nLine(N8N_VERSION);
const schedulers = (line.name === '2.x' ? ['classic', 'durable'] : ['classic']) as Array<keyof typeof SCHEDULERS>;

/** `event id` of every item the trigger output in these executions, oldest first (a product.low_stock's is product_id). */
const events = (executions: Execution[]) =>
	executions.flatMap((e) =>
		nodeOutput(e, TRIGGER).map((json) => {
			const data = json.data as { id?: unknown; product_id?: unknown };
			return `${String(json.event)} ${String(json.event === 'product.low_stock' ? data.product_id : data.id)}`;
		}),
	);

/** A poll's wait, with room for a slow poll on a busy machine. */
const pollWaitMs = line.shortestPoll.intervalMs + 20_000;

const session = useSession(60_000);

describe.each(schedulers)('%s scheduler', (scheduler) => {
	let own: OwnN8n;

	beforeAll(async () => {
		own = await startOwnN8n(session.ctx, SCHEDULERS[scheduler]);
	}, 180_000);

	afterAll(async () => {
		await own?.dispose();
	});

	const pollingWorkflow = (name: string, parameters: Record<string, unknown>): WorkflowDefinition => ({
		name: `${name} (${scheduler})`,
		nodes: [erpPollingTriggerNode(line.shortestPoll.pollTimes, parameters, own.credential)],
		connections: {},
	});

	/** The workflow's first `count` executions, each successful. */
	async function executionsOf(workflow: SavedWorkflow, count: number): Promise<Execution[]> {
		const found = await waitForExecutions(own.client, workflow.id, atLeast(count), pollWaitMs);
		expect(found.map((e) => e.status)).toEqual(Array(count).fill('success'));
		return found.slice(0, count);
	}

	/** n8n's log line backing this workflow's poll off (JSON: its cause and delay), once there is one. */
	const backOffLine = (workflow: SavedWorkflow) =>
		own
			.log()
			.split('\n')
			.find((line) => line.includes('Poll failed; backing off') && line.includes(`"workflowId":"${workflow.id}"`));

	/** Waits until the sandbox has answered `polls` more lists of `path` since `since`. */
	const pollsSeen = async (since: number, path: string, polls: number) =>
		await waitFor(async () => (await session.sandbox.requests(since)).filter((r) => r.method === 'GET' && r.path === path).length >= polls, polls * pollWaitMs);

	it('reports contacts added, invoices paid, stock falling low, contacts changed, and orders added and shipped (any list: /orders, which the API document does not list) once each, across a stop and start of n8n', async () => {
		const { ctx, sandbox } = session;
		const sent = await erpApi<Array<{ id: number }>>(ctx, 'GET', '/invoices?status=sent&per_page=2');
		expect(sent).toHaveLength(2);
		const product = await erpApi<{ id: number }>(ctx, 'POST', '/products', { sku: `POLL-${scheduler}-${Date.now()}`, name: 'Polled Chair', low_stock_threshold: 10 });
		await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		const newContact = async (email: string) => (await erpApi<{ id: number }>(ctx, 'POST', '/contacts', { first_name: 'Poll', last_name: 'Test', email })).id;
		const markPaid = (id: number) => erpApi(ctx, 'POST', `/invoices/${id}/mark-paid`);
		const newOrder = async (n: number, status = 'open') =>
			(await erpApi<{ id: number }>(ctx, 'POST', '/orders', { reference: `SO-E2E-${scheduler}-${Date.now()}-${n}`, customer: 'Nordwind GmbH', total: 10 * n, status })).id;
		const ship = (id: number) => erpApi(ctx, 'PATCH', `/orders/${id}`, { status: 'shipped' });
		const confirmedOrder = await newOrder(1, 'confirmed');

		const watch = (name: string, parameters: Record<string, unknown>) => own.client.createActiveWorkflow(pollingWorkflow(name, parameters));
		const contacts = await watch('Polled contacts', { triggerOn: 'contact:recordAdded' });
		const invoices = await watch('Polled paid invoices', { triggerOn: 'invoice:fieldValue', field: 'status', value: 'paid' });
		const stock = await watch('Polled stock', { triggerOn: 'product:lowStock', products: 'chosen', productIds: String(product.id), thresholdType: 'field' });
		const companies = await watch('Polled company changes', { triggerOn: 'contact:recordUpdated', fieldsToWatch: 'company' });
		const ordersAdded = await watch('Polled orders added', { triggerOn: 'list:recordAdded', listPath: '/orders' });
		const ordersShipped = await watch('Polled orders shipped', { triggerOn: 'list:fieldValue', listPath: '/orders', idField: 'reference', field: 'status', value: 'shipped' });
		const workflows = [contacts, invoices, stock, companies, ordersAdded, ordersShipped];

		// Publishing takes a baseline: nothing reported, an empty execution that makes n8n keep it under either scheduler.
		for (const workflow of workflows) expect(nodeOutput((await executionsOf(workflow, 1))[0], TRIGGER)).toEqual([]);

		// While n8n runs: each change is reported by the next poll.
		const a = await newContact('poll-a@example.com');
		const b = await newContact('poll-b@example.com');
		await markPaid(sent[0].id);
		await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 3 });
		const secondOrder = await newOrder(2);
		await ship(confirmedOrder);
		expect(events((await executionsOf(contacts, 2)).slice(1))).toEqual(expect.arrayContaining([`contact.created ${a}`, `contact.created ${b}`]));
		expect(events((await executionsOf(ordersAdded, 2)).slice(1))).toEqual([`record.created ${secondOrder}`]);
		expect(events((await executionsOf(ordersShipped, 2)).slice(1))).toEqual([`record.shipped ${confirmedOrder}`]);
		expect(events((await executionsOf(invoices, 2)).slice(1))).toEqual([`invoice.paid ${sent[0].id}`]);
		expect(events((await executionsOf(stock, 2)).slice(1))).toEqual([`product.low_stock ${product.id}`]);
		// New contacts are no update, but learnt: an empty execution makes n8n keep them.
		const learnt = await waitForExecutions(own.client, companies.id, (found) => found.length >= 2 && events(found).length === 0, pollWaitMs);
		expect(learnt.map((e) => e.status)).toEqual(learnt.map(() => 'success'));

		// Restocked: nothing to report, but the trigger is armed again; the empty execution makes n8n save that.
		await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 60 });
		expect(nodeOutput((await executionsOf(stock, 3))[2], TRIGGER)).toEqual([]);
		const companiesBefore = (await allExecutions(own.client, companies.id)).length;

		// n8n down: changes meanwhile are reported once when it is back.
		await own.stop();
		const c = await newContact('poll-c@example.com');
		await markPaid(sent[1].id);
		await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 1 });
		await erpApi(ctx, 'PUT', `/contacts/${a}`, { company: 'Moved While Down GmbH' });
		const thirdOrder = await newOrder(3);
		await ship(secondOrder);
		const restartedAt = await sandbox.lastRequestSeq();
		await own.start();
		expect(events((await executionsOf(contacts, 3)).slice(2))).toEqual([`contact.created ${c}`]);
		expect(events((await executionsOf(invoices, 3)).slice(2))).toEqual([`invoice.paid ${sent[1].id}`]);
		expect(events((await executionsOf(stock, 4)).slice(3))).toEqual([`product.low_stock ${product.id}`]);
		expect(events((await executionsOf(companies, companiesBefore + 1)).slice(companiesBefore))).toEqual([`contact.updated ${a}`]);
		expect(events((await executionsOf(ordersAdded, 3)).slice(2))).toEqual([`record.created ${thirdOrder}`]);
		expect(events((await executionsOf(ordersShipped, 3)).slice(2))).toEqual([`record.shipped ${secondOrder}`]);

		// Two more polls after the restart report nothing again.
		await pollsSeen(restartedAt, '/invoices', 3);
		await pollsSeen(restartedAt, '/orders', 6);
		const counts = await Promise.all(workflows.map(async (workflow) => (await allExecutions(own.client, workflow.id)).length));
		expect(counts).toEqual([3, 3, 4, companiesBefore + 1, 3, 3]);
		const all = events(await allExecutions(own.client, contacts.id, true));
		expect(new Set(all).size).toBe(all.length);
		expect(all).toEqual(expect.arrayContaining([`contact.created ${a}`, `contact.created ${b}`, `contact.created ${c}`]));
		for (const workflow of workflows) await own.client.deactivateWorkflow(workflow.id);
	}, 900_000);

	if (scheduler !== 'durable') return;

	/** A published workflow reporting contacts added, with no retries of its own, past its baseline execution. */
	const polledContacts = async (name: string) => {
		const workflow = await own.client.createActiveWorkflow(pollingWorkflow(name, { triggerOn: 'contact:recordAdded', options: { maxRetries: 0 } }));
		await executionsOf(workflow, 1);
		return workflow;
	};

	it('a poll past its deadline changes nothing: n8n abandons it, and a later poll reports the change once', async () => {
		const { ctx, sandbox } = session;
		const workflow = await polledContacts('Polled contacts past the deadline');
		const contact = (await erpApi<{ id: number }>(ctx, 'POST', '/contacts', { first_name: 'Slow', last_name: 'Poll', email: 'poll-deadline@example.com' })).id;
		await sandbox.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'latency', delayMs: 25_000 } });
		await waitFor(() => /Poll exceeded its timeout and was abandoned/.test(own.log()), pollWaitMs + 20_000);
		const reported = await waitForExecutions(own.client, workflow.id, (found) => events(found).length > 0, 60_000);
		expect(events(reported)).toEqual([`contact.created ${contact}`]);
		// The abandoned poll finished later with the same change; n8n dropped it, and no poll since reported it again.
		const since = await sandbox.lastRequestSeq();
		await pollsSeen(since, '/contacts', 2);
		expect(events(await allExecutions(own.client, workflow.id, true))).toEqual([`contact.created ${contact}`]);
		await own.client.deactivateWorkflow(workflow.id);
	}, 300_000);

	it("n8n's back-off honours the wait a 429 named: no poll until it has passed, then the change is reported once", async () => {
		const { ctx, sandbox } = session;
		const workflow = await polledContacts('Polled contacts under a rate limit');
		const waitSeconds = 45;
		const since = await sandbox.lastRequestSeq();
		await sandbox.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: waitSeconds } });
		const contact = (await erpApi<{ id: number }>(ctx, 'POST', '/contacts', { first_name: 'Rate', last_name: 'Limited', email: 'poll-429@example.com' })).id;
		const refused = await waitFor(async () => (await sandbox.requests(since)).find((r) => r.path === '/contacts' && r.status === 429), pollWaitMs);
		// n8n's log: the failure the error declared, and the wait it backs off by.
		const backingOff = await waitFor(() => backOffLine(workflow), 10_000);
		expect(backingOff).toMatch(/"cause":"rate-limited"/);
		expect(backingOff).toMatch(new RegExp(`"delayMs":${waitSeconds * 1000}\\b`));

		const next = await waitFor(
			async () => (await sandbox.requests(refused.seq)).find((r) => r.method === 'GET' && r.path === '/contacts'),
			(waitSeconds + 30) * 1000,
		);
		expect(Date.parse(next.at) - Date.parse(refused.at)).toBeGreaterThanOrEqual(waitSeconds * 1000 - 1000);
		const reported = await waitForExecutions(own.client, workflow.id, (found) => events(found).length > 0, pollWaitMs);
		expect(events(reported)).toEqual([`contact.created ${contact}`]);
		await own.client.deactivateWorkflow(workflow.id);
	}, 300_000);

	it('a token refused (401) backs polling off until the workflow is published again; then it resumes and misses nothing', async () => {
		const { ctx, sandbox } = session;
		const saved = await polledContacts('Polled contacts with a revoked token');
		const since = await sandbox.lastRequestSeq();
		await sandbox.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 401 } });
		await waitFor(async () => (await sandbox.requests(since)).some((r) => r.path === '/contacts' && r.status === 401), pollWaitMs);
		expect(await waitFor(() => backOffLine(saved), 10_000)).toMatch(/"cause":"credential-invalid"/);
		const contact = (await erpApi<{ id: number }>(ctx, 'POST', '/contacts', { first_name: 'Token', last_name: 'Back', email: 'poll-401@example.com' })).id;

		// The token works again (the fault was one answer), yet n8n waits: a credential it takes for dead is the user's.
		const afterRefusal = await sandbox.lastRequestSeq();
		await new Promise((resolve) => setTimeout(resolve, 3 * line.shortestPoll.intervalMs));
		expect((await sandbox.requests(afterRefusal)).filter((r) => r.path === '/contacts')).toEqual([]);

		// What the README tells the user: publish the workflow again (unpublish, publish).
		await own.client.deactivateWorkflow(saved.id);
		await own.client.activateWorkflow(await own.client.getWorkflow(saved.id));
		const resumed = await waitForExecutions(own.client, saved.id, (found) => events(found).includes(`contact.created ${contact}`), pollWaitMs);
		expect(events(resumed)).toEqual([`contact.created ${contact}`]);
		await own.client.deactivateWorkflow(saved.id);
	}, 300_000);
});
