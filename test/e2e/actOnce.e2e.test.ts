import { randomUUID } from 'node:crypto';

import type { Contact, Invoice } from '../../sandbox/types';
import type { Delivery } from '../../sandbox/webhooks';
import { triggerBranch } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { erpTriggers, erpTriggerType, exampleWorkflow, triggerUrl } from '../../tooling/host/examples';
import { allExecutions, atLeast, nodeOutput, waitForExecutions, type ListedExecution } from '../../tooling/host/executions';
import { N8N_VERSION } from '../../tooling/host/install';
import { n8nLine } from '../../tooling/host/lines';
import { useSession } from './setup/session';
import type { WorkflowDefinition, WorkflowNode } from '../../tooling/host/types';
import { chain, ERP_POLLING_TRIGGER_NAME, erpTriggerNode, node } from '../../tooling/host/workflows';
import { postDelivery } from '../../tooling/host/triggers';
import { deliveredTo, sentInvoice } from './support';

// Acting once per event in a real n8n, with the package's examples as a user imports them: ERP Trigger (and ERP
// Polling Trigger) → Remove Duplicates on {{ $json.eventKey }}, scope Workflow → the step that acts. A captured real
// invoice.paid sent again with a new timestamp and delivery id acts once; one payment reported by both triggers acts
// once; two real updates of one contact act twice.

const EXAMPLE = 'invoice-paid-ship-once.json';
const ONCE = 'Once per Event';
const SHIP = 'Ship the Goods';
const line = n8nLine(N8N_VERSION);
/** A poll's wait, with room for a slow poll on a busy machine. */
const pollWaitMs = line.shortestPoll.intervalMs + 30_000;

const example = (): WorkflowDefinition => exampleWorkflow(EXAMPLE, session.ctx.credentials.good);

const session = useSession();
const cleanups: Array<() => Promise<unknown>> = [];

// Later test files pay invoices and update contacts too: these workflows must not act on them.
afterAll(async () => {
	for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Saves and activates a workflow, subscribes its ERP Trigger to `events` in the sandbox, and returns its id and URL. */
async function live(definition: WorkflowDefinition, events: Array<'invoice.paid' | 'contact.updated'>): Promise<{ workflowId: string; url: string }> {
	const workflow = await session.n8n.createActiveWorkflow(definition);
	const url = triggerUrl(session.ctx.n8nUrl, erpTriggers(workflow)[0], await erpTriggerType(session.n8n));
	const { id } = await session.sandbox.addWebhook({ url, events });
	cleanups.push(
		() => session.n8n.deactivateWorkflow(workflow.id),
		() => session.sandbox.removeWebhook(id),
	);
	return { workflowId: workflow.id, url };
}

describe(`${EXAMPLE}: both triggers → ${ONCE} → ${SHIP}`, () => {
	let workflowId: string;
	let url: string;

	beforeAll(async () => {
		// The example as shipped, polling at the shortest interval this line accepts instead of every 5 minutes.
		const workflow = exampleWorkflow(EXAMPLE, session.ctx.credentials.good, line.shortestPoll.pollTimes);
		({ workflowId, url } = await live({ ...workflow, name: `e2e act once: ${workflow.name}` }, ['invoice.paid']));
	});

	/** A new unpaid invoice, marked paid through the ERP's API; returns it and the sandbox's delivery of its invoice.paid. */
	async function pay(): Promise<{ invoice: Invoice; delivery: Delivery }> {
		const invoice = await sentInvoice(session);
		const markPaid = () => erpApi(session.ctx, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-4410' });
		return { invoice, delivery: (await deliveredTo(session.sandbox, url, 'invoice.paid', markPaid, (data) => data.invoice_id === invoice.id)).delivery };
	}

	const byWebhook = (id: number) => (e: ListedExecution) => triggerBranch(e, 0).some((item) => item.data.invoice_id === id);
	const byPoll = (id: number) => (e: ListedExecution) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).some((item) => (item.data as { invoice_id?: number }).invoice_id === id);
	const shipped = (executions: ListedExecution[], id: number) => executions.flatMap((e) => nodeOutput(e, SHIP)).filter((item) => item.invoice_id === id);

	test('a captured real invoice.paid sent again with a new timestamp and delivery id is confirmed again, and ships once', async () => {
		const { invoice, delivery } = await pay();
		await waitForExecutions(session.n8n, workflowId, atLeast(1, byWebhook(invoice.id)));
		const replayed = await postDelivery(url, { ...(delivery.body as object), timestamp: new Date().toISOString() }, `replay-${randomUUID()}`);
		expect(replayed.status).toBe(200);
		const executions = await waitForExecutions(session.n8n, workflowId, atLeast(2, byWebhook(invoice.id)));
		const [first, again] = executions.filter(byWebhook(invoice.id));

		const [original, replay] = [triggerBranch(first, 0)[0], triggerBranch(again, 0)[0]];
		expect(replay.deliveryKey).not.toBe(original.deliveryKey);
		expect(replay).toMatchObject({ confirmation: { status: 'confirmed' }, eventKey: original.eventKey });
		expect(nodeOutput(again, ONCE)).toEqual([]);
		expect(shipped(executions, invoice.id)).toEqual([expect.objectContaining({ invoice_id: invoice.id, reported_by: 'ERP Trigger' })]);
	});

	test('one payment reported by the ERP Trigger at once and by the next poll ships once', async () => {
		const { invoice } = await pay();
		const executions = await waitForExecutions(session.n8n, workflowId, (all) => all.some(byWebhook(invoice.id)) && all.some(byPoll(invoice.id)), pollWaitMs + 30_000);
		const [instant] = executions.filter(byWebhook(invoice.id));
		const [polled] = executions.filter(byPoll(invoice.id));

		expect(nodeOutput(polled, ERP_POLLING_TRIGGER_NAME).find((item) => (item.data as { invoice_id?: number }).invoice_id === invoice.id)).toMatchObject({
			event: 'invoice.paid',
			eventKey: triggerBranch(instant, 0)[0].eventKey,
		});
		expect(shipped(executions, invoice.id)).toEqual([expect.objectContaining({ invoice_id: invoice.id, reported_by: 'ERP Trigger' })]);
	});
});

describe('ERP Trigger (contact.updated) → the examples’ Remove Duplicates on eventKey → an acting step', () => {
	let workflowId: string;
	let url: string;
	const ACT = 'Act On Event';

	beforeAll(async () => {
		const once = example().nodes.find((n) => n.name === ONCE) as WorkflowNode;
		const trigger = { ...erpTriggerNode({ events: ['contact.updated'] }, session.ctx.credentials.good), typeVersion: 2 };
		({ workflowId, url } = await live(chain('e2e act once: contact updated', [trigger, { ...once, position: [220, 0] }, node(ACT, 'n8n-nodes-base.noOp', 1, {}, { position: [440, 0] })]), ['contact.updated']));
	});

	test('two real updates of one contact act twice', async () => {
		const contact = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Ines', last_name: 'Act-Once', email: `ines.${Date.now()}@example.com` });
		const ofContact = (e: ListedExecution) => triggerBranch(e, 0).some((item) => item.data.id === contact.id);
		const update = async (company: string, count: number) => {
			await deliveredTo(session.sandbox, url, 'contact.updated', () => erpApi(session.ctx, 'PUT', `/contacts/${contact.id}`, { company }), (data) => data.id === contact.id);
			// Each update's delivery confirmed before the next update: its read shows its own update.
			return await waitForExecutions(session.n8n, workflowId, atLeast(count, ofContact));
		};
		await update('Südwind AG', 1);
		const executions = (await update('Westwind KG', 2)).filter(ofContact);

		expect(executions.map((e) => nodeOutput(e, ACT).map((item) => (item.record as { company?: string }).company))).toEqual([['Südwind AG'], ['Westwind KG']]);
		expect(new Set(executions.map((e) => triggerBranch(e, 0)[0].eventKey)).size).toBe(2);
		expect((await allExecutions(session.n8n, workflowId)).length).toBe(2);
	});
});
