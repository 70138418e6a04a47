import type { EventsOnceResult } from '../events/runEventsOnce';
import { paragraphs, seconds, table, verdict } from '../../../tooling/host/results';

/** The summary's rows for the events scenario. */
export function eventsSummaryRows(e: EventsOnceResult | null): unknown[][] {
	if (!e) return [['events acted once', 'not run']];
	return [
		['events acted once: real payments', `${e.real.events} (${e.real.byWebhook} acted on by the ERP Trigger, ${e.real.byPoll} by the poll)`],
		['events acted once: lost', e.real.lost],
		['events acted once: acted twice', e.real.actedTwice],
		['events acted once: forged ones acted on', e.forged.acted],
	];
}

/** The block `reliability:events`: the run's settings, its counts and its verdict. */
export function eventsBlock(e: EventsOnceResult | null): string {
	if (!e) return 'The scenario did not run.';
	return paragraphs(
		`Settings: \`${JSON.stringify(e.settings)}\`. This run took **${seconds(e.wallMs)}** (its own n8n's boot and restart included); ` +
			`${e.faultsStruck} API requests were struck by a fault. Sent again: ${e.sent.replayed} delivered payments replayed with a new timestamp and delivery id, ` +
			`${e.sent.resent} resent with the same id; ${e.sent.heldAnswered} deliveries were answered and held when n8n was killed.`,
		table(
			['check', 'must be', 'counted'],
			[
				['payments never acted on', 0, e.real.lost],
				['payments acted on more than once', 0, e.real.actedTwice],
				['forged payments acted on', 0, e.forged.acted],
				['shipments of an invoice the run neither paid nor forged', 0, e.unknown],
				['the tokens in the executions', 0, e.tokenLeaks],
			],
		),
		`Payments acted on once: ${e.real.actedOnce} of ${e.real.events}, ${e.real.byWebhook} first reported by the ERP Trigger and ${e.real.byPoll} by the ERP Polling Trigger. ` +
			`The ${e.forged.invoices} forged deliveries cost the ERP ${e.forged.invoices === 0 ? 0 : Math.round((e.forgedReads.total / e.forged.invoices) * 10) / 10} reads each on average, ${e.forgedReads.most} at most (retries of reads the faults struck included). ` +
			`Executions: ${e.executions}. Result: ${verdict(e.failures)}.`,
		e.examples.length > 0 && e.examples.map((example) => `- ${example}`).join('\n'),
	).trimEnd();
}
