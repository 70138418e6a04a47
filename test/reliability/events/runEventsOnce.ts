import { randomUUID } from 'node:crypto';

import type { Delivery } from '../../../sandbox/webhooks';
import { erpTriggers, erpTriggerType, exampleWorkflow, triggerUrl } from '../../../tooling/host/examples';
import { atLeast, executionsAtRest, nodeOutput, waitForExecutions, type ListedExecution } from '../../../tooling/host/executions';
import { N8N_VERSION } from '../../../tooling/host/install';
import { n8nLine } from '../../../tooling/host/lines';
import { startOwnN8n } from '../../../tooling/host/ownN8n';
import { sleep } from '../../../tooling/host/processes';
import { type ReliabilitySession, scenarioRandom, shuffled } from '../setup/context';
import { deliveriesDone, isOk, sentInvoices, tokenCount } from '../support/deliveries';
import { nonZero } from '../support/batch';
import { writeThroughFaults } from '../support/writeThroughFaults';
import { eventsChecks, type Shipment, tallyEvents } from './tallyEvents';

const ID = 'events-once';
/** The example as a user imports it: ERP Trigger and ERP Polling Trigger → Remove Duplicates on eventKey → the step that acts. */
const EXAMPLE = 'invoice-paid-ship-once.json';
const SHIP = 'Ship the Goods';
const line = n8nLine(N8N_VERSION);

/** Payments while the API fails and shows them late; each fifth delivered one replayed, each fifth resent. */
const PAYMENTS = 100;
const FORGED = 40;
const REPLAY_EVERY = 5;
/** Payments whose deliveries the trigger answered and holds (their reads wait out a 429) when n8n is killed. */
const HELD = 15;
/** Payments while n8n is down: the ERP's delivery and its one retry find no n8n. */
const WHILE_DOWN = 10;
const WORKERS = 4;
/**
 * A change shows in the API 4 s after it is made: past the trigger's default Confirmation Wait (3 s), so its
 * deliveries are read on after their answer; the poll's lists lag the same.
 */
const FAULTS = { errorRate: 0.05, dropRate: 0.03, visibleAfterMs: 4000, faultTiming: 'before' as const };
/** The wait the 429 names while deliveries are held: n8n is killed inside it. */
const HOLD_S = 20;
const LATE_READS_MS = 11_000;
/** Polls after the restart that may be needed to report what the webhook path lost (a poll may fail under the faults). */
const POLLS_TO_CATCH_UP = 4;

/** Runs `tasks` with WORKERS at once. */
async function inParallel(tasks: Array<() => Promise<unknown>>): Promise<void> {
	let next = 0;
	await Promise.all(Array.from({ length: WORKERS }, async () => {
		while (next < tasks.length) await tasks[next++]();
	}));
}


/**
 * Real payments reported by both triggers of the example, in its own n8n running production executions one at a
 * time (what docs/events-you-can-trust.md advises for acting once): while the API fails and shows changes 4 s late,
 * with forged deliveries, replays (new timestamp and delivery id), the ERP's resends (same id), and n8n killed while
 * it holds answered deliveries, then payments while it is down. Judged against the ERP's records: each payment
 * shipped exactly once, no forged one ever, and the reads a forged delivery cost.
 */
export async function runEventsOnceScenario(session: ReliabilitySession, log: (line: string) => void) {
	const started = Date.now();
	const { sandbox } = session;
	await sandbox.reset();
	await sandbox.seed({ contacts: 5, seed: 55 });
	const [contact] = await sandbox.records('contacts');
	const pallets = { description: 'Pallet racking', quantity: 3, unit_price: 189.5, tax_rate: 20 };
	const toPay = await sentInvoices(session, PAYMENTS + HELD + WHILE_DOWN, pallets, () => contact.id);
	const unpaid = await sentInvoices(session, FORGED, pallets, () => contact.id);
	const own = await startOwnN8n(session.ctx, { N8N_CONCURRENCY_PRODUCTION_LIMIT: '1', N8N_EXPRESSION_ENGINE: 'legacy' });
	let subscriptionId: number | undefined;
	try {
		const workflow = await own.client.createActiveWorkflow({ ...exampleWorkflow(EXAMPLE, own.credential, line.shortestPoll.pollTimes), name: 'reliability: events once' });
		const url = triggerUrl(own.client.baseUrl, erpTriggers(workflow)[0], await erpTriggerType(own.client));
		subscriptionId = (await sandbox.addWebhook({ url, events: ['invoice.paid'] })).id;
		const pollWaitMs = line.shortestPoll.intervalMs + 30_000;
		// The activation's poll remembers every invoice as it is; what is paid after it is news to the poll.
		await waitForExecutions(own.client, workflow.id, atLeast(1), pollWaitMs);
		const firstSeq = await sandbox.lastRequestSeq();
		await sandbox.setFaults({ ...FAULTS, seed: session.ctx.faultSeed });

		const pay = (id: number) => () => writeThroughFaults(session, 'POST', `/invoices/${id}/mark-paid`, { payment_method: 'bank_transfer', reference: `SEPA-${id}` });
		const forge = (id: number) => () => sandbox.forge({ event: 'invoice.paid', data: { invoice_id: id, amount: 682.2, currency: 'EUR' }, subscriptionId });
		log(`events once: ${PAYMENTS} payments and ${FORGED} forged deliveries, mixed`);
		await inParallel(shuffled([...toPay.slice(0, PAYMENTS).map(pay), ...unpaid.map(forge)], scenarioRandom(session.ctx.faultSeed, ID)));
		await deliveriesDone(session);

		// Captured real deliveries sent again: some replayed with a new timestamp and delivery id, some resent as the
		// ERP resends (same id, same bytes).
		const delivered = (await sandbox.deliveries()).filter((d: Delivery) => d.url === url && !d.forged && d.attempts.some((a) => isOk(a.status)));
		let replayed = 0;
		let resent = 0;
		await inParallel(
			delivered.flatMap((d, i) => {
				if (i % REPLAY_EVERY === 0) {
					replayed++;
					return [() => sandbox.forge({ event: d.event, body: { ...(d.body as object), timestamp: new Date().toISOString() }, deliveryId: `replay-${randomUUID()}`, subscriptionId })];
				}
				if (i % REPLAY_EVERY === 1) {
					resent++;
					return [() => sandbox.forge({ event: d.event, body: d.body, deliveryId: d.id, subscriptionId })];
				}
				return [];
			}),
		);
		await deliveriesDone(session);
		// A delivery answered before the API showed its payment is read on for up to 10 s after it came.
		await sleep(LATE_READS_MS);
		await executionsAtRest(own.client, workflow.id, 1, 5000);

		// Every read now waits out a 429: the next payments' deliveries are answered 200 and held, and n8n dies holding them.
		log(`events once: ${HELD} payments held, n8n killed, ${WHILE_DOWN} payments while it is down`);
		await sandbox.queueFault({ match: { method: 'GET' }, fault: { kind: 'rateLimit', retryAfter: HOLD_S }, times: 100_000 });
		const held = new Set(toPay.slice(PAYMENTS, PAYMENTS + HELD));
		await inParallel([...held].map(pay));
		await deliveriesDone(session);
		const heldAnswered = (await sandbox.deliveries()).filter(
			(d) => d.url === url && !d.forged && held.has((d.body as { data: { invoice_id: number } }).data.invoice_id) && d.attempts.some((a) => isOk(a.status)),
		).length;
		await own.kill();
		await inParallel(toPay.slice(PAYMENTS + HELD).map(pay));
		await deliveriesDone(session);
		await sandbox.clearFaultQueue();
		await own.start();

		const paid = new Set((await sandbox.records('invoices')).filter((i) => i.status === 'paid').map((i) => i.id));
		const payments = toPay.filter((id) => paid.has(id));
		const shipmentsOf = (executions: ListedExecution[]): Shipment[] =>
			executions.flatMap((e) =>
				nodeOutput(e, SHIP).map((item) => ({ executionId: e.id, invoiceId: Number(item.invoice_id), eventKey: String(item.event_key), reportedBy: String(item.reported_by) })),
			);
		const allShipped = (executions: ListedExecution[]) => {
			const shipped = new Set(shipmentsOf(executions).map((s) => s.invoiceId));
			return payments.every((id) => shipped.has(id));
		};
		log('events once: waiting for the polls to report what the webhook path lost');
		await waitForExecutions(own.client, workflow.id, allShipped, POLLS_TO_CATCH_UP * line.shortestPoll.intervalMs + 30_000).catch(() => undefined);
		const executions = await executionsAtRest(own.client, workflow.id, 1, 5000);
		const lastSeq = await sandbox.lastRequestSeq();
		const tally = tallyEvents(payments, unpaid, shipmentsOf(executions));
		// The suite's secrets scan reads the suite's n8n; this n8n's executions are searched here.
		const text = JSON.stringify(executions);
		const tokenLeaks = tokenCount(session, text);

		// What a forged delivery cost the ERP: the trigger's reads of the invoice it named (the poll reads lists only).
		const requests = (await sandbox.requests(firstSeq)).filter((r) => r.seq <= lastSeq);
		const forgedReads = unpaid.map((id) => requests.filter((r) => r.method === 'GET' && r.path === `/invoices/${id}`).length);
		return {
			id: ID,
			title: 'Every real event acts once: both triggers → Remove Duplicates on eventKey, under faults, late reads, replays, resends and a kill',
			settings: { example: EXAMPLE, faults: FAULTS, n8n: { N8N_CONCURRENCY_PRODUCTION_LIMIT: 1 }, payments: PAYMENTS, forged: FORGED, held: HELD, whileDown: WHILE_DOWN, holdS: HOLD_S, workers: WORKERS },
			sent: { replayed, resent, heldAnswered },
			...tally,
			forgedReads: { total: forgedReads.reduce((a, b) => a + b, 0), most: Math.max(0, ...forgedReads) },
			executions: executions.length,
			faultsStruck: requests.filter((r) => r.fault).length,
			tokenLeaks,
			wallMs: Date.now() - started,
			failures: [
				...nonZero(eventsChecks(tally, tokenLeaks)),
				...(heldAnswered < HELD ? [`only ${heldAnswered} of the ${HELD} held deliveries were answered 2xx before the kill`] : []),
				...(replayed === 0 || resent === 0 ? ['no delivery was replayed or resent'] : []),
			],
		};
	} finally {
		await sandbox.clearFaults();
		await sandbox.clearFaultQueue();
		if (subscriptionId !== undefined) await sandbox.removeWebhook(subscriptionId);
		await own.dispose();
	}
}

export type EventsOnceResult = Awaited<ReturnType<typeof runEventsOnceScenario>>;
