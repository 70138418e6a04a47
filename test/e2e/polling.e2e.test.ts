import type { Execution, SavedWorkflow, WorkflowDefinition } from '../host/types';
import { erpApi } from '../host/erpApi';
import { allExecutions, atLeast, nodeOutput, waitForExecutions } from '../host/executions';
import { startOwnN8n, type OwnN8n } from '../host/ownN8n';
import { waitFor } from '../../sandbox/adminClient';
import { connect, type Session } from '../host/session';
import { ERP_POLLING_TRIGGER_NAME as TRIGGER, erpPollingTriggerNode } from '../host/workflows';

/**
 * The ERP Polling Trigger in a real n8n: active workflows pick up changes made through the ERP's API, each once;
 * n8n stopped, changes made, n8n started again on the same user folder: all of them reported once, nothing twice.
 * Each step waits for the next poll, at the shortest interval the line accepts (N8nLine.shortestPoll): n8n 2.41
 * refuses anything under a minute ("The polling interval is too short"), 1.123 runs a custom cron every 10 s.
 */

let session: Session;
let own: OwnN8n;

beforeAll(async () => {
	session = await connect();
	own = await startOwnN8n(session.ctx);
	await own.client.createApiKey(`polling e2e ${Date.now()}`);
}, 180_000);

afterAll(async () => {
	await own?.dispose();
});

const pollingWorkflow = (name: string, parameters: Record<string, unknown>): WorkflowDefinition => ({
	name,
	nodes: [erpPollingTriggerNode(own.client.line.shortestPoll.pollTimes, parameters, own.credential)],
	connections: {},
});

/** `event id` of every item the trigger output in these executions, oldest first. */
const events = (executions: Execution[]) =>
	executions.flatMap((e) => nodeOutput(e, TRIGGER).map((json) => `${String(json.event)} ${String((json.data as { id: unknown }).id)}`));

/** A poll's wait, with room for a slow poll on a busy machine. */
const pollWaitMs = () => own.client.line.shortestPoll.intervalMs + 15_000;

async function executionsOf(workflow: SavedWorkflow, count: number): Promise<Execution[]> {
	const found = await waitForExecutions(own.client, workflow.id, atLeast(count), pollWaitMs());
	expect(found.map((e) => e.status)).toEqual(Array(count).fill('success'));
	return found;
}

it('reports contacts added, invoices paid and stock falling low once each, across a stop and start of n8n', async () => {
	const { ctx, sandbox } = session;
	const sent = await erpApi<Array<{ id: number }>>(ctx, 'GET', '/invoices?status=sent&per_page=2');
	expect(sent).toHaveLength(2);
	const product = await erpApi<{ id: number }>(ctx, 'POST', '/products', { sku: `POLL-${Date.now()}`, name: 'Polled Chair', low_stock_threshold: 10 });
	await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
	const newContact = async (email: string) => (await erpApi<{ id: number }>(ctx, 'POST', '/contacts', { first_name: 'Poll', last_name: 'Test', email })).id;
	const markPaid = (id: number) => erpApi(ctx, 'POST', `/invoices/${id}/mark-paid`);

	const contacts = await own.client.createActiveWorkflow(pollingWorkflow('Polled contacts', { resource: 'contact', triggerOn: 'recordAdded' }));
	const invoices = await own.client.createActiveWorkflow(
		pollingWorkflow('Polled paid invoices', { resource: 'invoice', triggerOn: 'fieldValue', field: 'status', value: 'paid' }),
	);
	const stock = await own.client.createActiveWorkflow(
		pollingWorkflow('Polled stock', { resource: 'product', triggerOn: 'lowStock', products: 'chosen', productIds: String(product.id), thresholdType: 'field' }),
	);

	// While n8n runs: each change is reported by the next poll.
	const a = await newContact('poll-a@example.com');
	const b = await newContact('poll-b@example.com');
	await markPaid(sent[0].id);
	await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 3 });
	expect(events(await executionsOf(contacts, 1))).toEqual(expect.arrayContaining([`contact.created ${a}`, `contact.created ${b}`]));
	expect(events(await executionsOf(invoices, 1))).toEqual([`invoice.paid ${sent[0].id}`]);
	expect(events(await executionsOf(stock, 1))).toEqual([`product.low_stock ${product.id}`]);

	// Restocked: nothing to report, but the trigger is armed again; the empty execution makes n8n save that.
	await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 60 });
	const rearmed = await executionsOf(stock, 2);
	expect(nodeOutput(rearmed[1], TRIGGER)).toEqual([]);

	// n8n down: changes meanwhile are reported once when it is back (its activation poll).
	await own.stop();
	const c = await newContact('poll-c@example.com');
	await markPaid(sent[1].id);
	await sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 1 });
	const restartedAt = await sandbox.lastRequestSeq();
	await own.start();
	expect(events((await executionsOf(contacts, 2)).slice(1))).toEqual(expect.arrayContaining([`contact.created ${c}`]));
	expect(events((await executionsOf(invoices, 2)).slice(1))).toEqual([`invoice.paid ${sent[1].id}`]);
	expect(events((await executionsOf(stock, 3)).slice(2))).toEqual([`product.low_stock ${product.id}`]);

	// The next scheduled poll after the restart reports nothing again.
	const listsAfterRestart = async () =>
		(await sandbox.requests(restartedAt)).filter((r) => r.method === 'GET' && r.path === '/invoices').length;
	await waitFor(async () => (await listsAfterRestart()) >= 2, pollWaitMs());
	expect(await allExecutions(own.client, invoices.id)).toHaveLength(2);
	const all = events(await allExecutions(own.client, contacts.id, true));
	expect(new Set(all).size).toBe(all.length);
	expect(all).toEqual(expect.arrayContaining([`contact.created ${a}`, `contact.created ${b}`, `contact.created ${c}`]));
}, 600_000);
