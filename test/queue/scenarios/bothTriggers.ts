import { randomUUID } from 'node:crypto';

import type { Invoice } from '../../../sandbox/types';
import { triggerBranch } from '../../../tooling/host/confirmingTrigger';
import { exampleWorkflow } from '../../../tooling/host/examples';
import { atLeast, nodeOutput, waitForExecutions, type ListedExecution } from '../../../tooling/host/executions';
import { settledDeliveries } from '../../../tooling/host/triggers';
import { ERP_POLLING_TRIGGER_NAME } from '../../../tooling/host/workflows';
import { erpCall, type QueueSession, subscribedTrigger } from '../support/session';
import { POLL } from './polling';

const EXAMPLE = 'invoice-paid-ship-once.json';
const SHIP = 'Ship the Goods';

/**
 * The example that takes invoice.paid from both triggers (ERP Trigger → webhook processor, ERP Polling Trigger → main)
 * into one Remove Duplicates on eventKey, whose history is in PostgreSQL, shared by the workers: one payment, then
 * a replay of its delivery with a new timestamp and delivery id, then polls: the goods ship once.
 */
export async function bothTriggersInTheCluster(session: QueueSession) {
	const definition = { ...exampleWorkflow(EXAMPLE, session.ctx.credential, POLL.pollTimes), name: 'queue: one payment from both triggers' };
	const { workflow, url, subscriptionId } = await subscribedTrigger(session, definition, ['invoice.paid']);
	const pollWaitMs = POLL.intervalMs + 30_000;
	try {
		// Publishing's poll remembers every invoice as it is: the payment below is news to the next poll.
		await waitForExecutions(session.n8n, workflow.id, atLeast(1), pollWaitMs);
		const [contact] = await session.sandbox.records('contacts');
		const invoice = await erpCall<Invoice>(session, 'POST', '/invoices', {
			contact_id: contact.id,
			lines: [{ description: 'Forklift battery', quantity: 1, unit_price: 2140, tax_rate: 20 }],
		});
		await erpCall(session, 'POST', `/invoices/${invoice.id}/send`, { email: 'ap@example.com' });
		const since = (await session.sandbox.events()).at(-1)?.seq ?? 0;
		await erpCall(session, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-QUEUE' });
		const emitted = (await session.sandbox.events()).find((e) => e.seq > since && e.event === 'invoice.paid');
		const [delivery] = (await settledDeliveries(session.sandbox, emitted?.deliveryIds ?? [], 60_000)).filter((d) => d.url === url);

		const byWebhook = (e: ListedExecution) => triggerBranch(e, 0).some((item) => item.data.invoice_id === invoice.id);
		const byPoll = (e: ListedExecution) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).some((item) => (item.data as { invoice_id?: number }).invoice_id === invoice.id);
		await waitForExecutions(session.n8n, workflow.id, atLeast(1, byWebhook), 60_000);
		const replay = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-erp-event': 'invoice.paid', 'x-erp-delivery': `replay-${randomUUID()}` },
			body: JSON.stringify({ ...(delivery.body as object), timestamp: new Date().toISOString() }),
		});
		const executions = await waitForExecutions(session.n8n, workflow.id, (all) => all.filter(byWebhook).length >= 2 && all.some(byPoll), pollWaitMs + 30_000);
		const webhookKey = triggerBranch(executions.filter(byWebhook)[0], 0)[0].eventKey;
		const polled = executions.filter(byPoll).flatMap((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME));
		// Executions the webhook processor's confirmation started, and main's poll; the items the acting step put out, by trigger.
		return {
			byWebhook: executions.filter(byWebhook).length,
			byPoll: executions.filter(byPoll).length,
			sameKey: polled.length > 0 && polled.every((item) => item.eventKey === webhookKey),
			delivery: delivery.attempts.map((a) => a.status ?? 0),
			replay: replay.status,
			shipped: executions.flatMap((e) => nodeOutput(e, SHIP)).filter((item) => item.invoice_id === invoice.id).map((item) => String(item.reported_by)),
		};
	} finally {
		await session.n8n.deactivateWorkflow(workflow.id);
		await session.sandbox.removeWebhook(subscriptionId);
	}
}
