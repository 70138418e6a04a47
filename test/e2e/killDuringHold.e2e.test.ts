import { erpApi } from '../../tooling/host/erpApi';
import { erpTriggers, erpTriggerType, exampleWorkflow, triggerUrl } from '../../tooling/host/examples';
import { allExecutions, nodeOutput, waitForExecutions, atLeast, type ListedExecution } from '../../tooling/host/executions';
import { N8N_VERSION } from '../../tooling/host/install';
import { n8nLine } from '../../tooling/host/lines';
import { startOwnN8n, type OwnN8n } from '../../tooling/host/ownN8n';
import { useSession } from './setup/session';
import { ERP_POLLING_TRIGGER_NAME } from '../../tooling/host/workflows';
import { deliveredTo, sentInvoice } from './support';

// The price of answering a delivery before its workflow starts: n8n killed (SIGKILL) while the ERP Trigger holds a
// delivery it answered 200 loses it, and the ERP will not send it again. The example that listens with both triggers
// (invoice-paid-ship-once.json) still ships once: after the restart, the ERP Polling Trigger reports the payment,
// and Remove Duplicates on eventKey lets it through.

const EXAMPLE = 'invoice-paid-ship-once.json';
const SHIP = 'Ship the Goods';
const line = n8nLine(N8N_VERSION);
const pollWaitMs = line.shortestPoll.intervalMs + 30_000;
/** The wait a 429 names to the trigger's read: the delivery is held (answered 200, read in its turn) that long. */
const HELD_S = 30;

const session = useSession();
let own: OwnN8n;

beforeAll(async () => {
	own = await startOwnN8n(session.ctx);
}, 240_000);

afterAll(async () => {
	await own?.dispose();
});

test('n8n killed while it holds a real invoice.paid: after the restart the poll reports it, and the goods ship once', async () => {
	const workflow = await own.client.createActiveWorkflow({ ...exampleWorkflow(EXAMPLE, own.credential, line.shortestPoll.pollTimes), name: 'e2e: killed while holding' });
	const url = triggerUrl(own.client.baseUrl, erpTriggers(workflow)[0], await erpTriggerType(own.client));
	const subscription = await session.sandbox.addWebhook({ url, events: ['invoice.paid'] });
	try {
		// The activation's poll remembers every invoice as it is; a payment after it is news to the poll.
		await waitForExecutions(own.client, workflow.id, atLeast(1), pollWaitMs);

		const invoice = await sentInvoice(session);
		// The trigger's read of this invoice is refused with a 429 naming HELD_S: the delivery is answered 200 at once
		// and read in its turn (the wait also holds the poll, which shares the ERP's budget in this n8n).
		await session.sandbox.queueFault({ match: { method: 'GET', path: `/invoices/${invoice.id}` }, fault: { kind: 'rateLimit', retryAfter: HELD_S } });
		await deliveredTo(session.sandbox, url, 'invoice.paid', () => erpApi(session.ctx, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-9031' }));

		await own.kill();
		await own.start();

		const ships = (executions: ListedExecution[]) => executions.flatMap((e) => nodeOutput(e, SHIP)).filter((item) => item.invoice_id === invoice.id);
		const polled = (e: ListedExecution) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).some((item) => (item.data as { invoice_id?: number }).invoice_id === invoice.id);
		await waitForExecutions(own.client, workflow.id, (all) => all.some(polled), pollWaitMs + HELD_S * 1000);
		// Two more polls: nothing else ships it (the held delivery died with the process; the poll reports it once).
		await new Promise((resolve) => setTimeout(resolve, 2 * line.shortestPoll.intervalMs));
		const executions = await allExecutions(own.client, workflow.id, true);
		expect(ships(executions)).toEqual([expect.objectContaining({ invoice_id: invoice.id, reported_by: 'ERP Polling Trigger' })]);
		expect(executions.filter(polled)).toHaveLength(1);
	} finally {
		await session.sandbox.removeWebhook(subscription.id);
	}
}, 300_000);
