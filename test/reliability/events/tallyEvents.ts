/** Judging the events scenario: what the acting step did for each payment, against the ERP's own record of what was paid. */
import { examples } from '../support/batch';

/** One item of the acting step (Ship the Goods), from an execution. */
export interface Shipment {
	executionId: string;
	invoiceId: number;
	eventKey: string;
	reportedBy: string;
}

/**
 * `paid`: the invoices the run paid (the ERP's records say paid); `forged`: unpaid invoices that forged deliveries
 * named. Each payment must ship exactly once (by either trigger), no forged one ever.
 */
export function tallyEvents(paid: number[], forged: number[], shipments: Shipment[]) {
	const byInvoice = new Map<number, Shipment[]>();
	for (const shipment of shipments) byInvoice.set(shipment.invoiceId, [...(byInvoice.get(shipment.invoiceId) ?? []), shipment]);
	const tally = {
		real: { events: paid.length, actedOnce: 0, lost: 0, actedTwice: 0, byWebhook: 0, byPoll: 0 },
		forged: { invoices: forged.length, acted: 0 },
		/** Shipments of an invoice the run neither paid nor forged. */
		unknown: 0,
		examples: [] as string[],
	};
	const { note, list } = examples();
	for (const id of paid) {
		const shipped = byInvoice.get(id) ?? [];
		if (shipped.length === 0) {
			tally.real.lost++;
			note('lost', `invoice ${id} paid, never shipped`);
			continue;
		}
		if (shipped.length > 1) {
			tally.real.actedTwice++;
			note('acted twice', `invoice ${id} shipped in executions ${shipped.map((s) => `${s.executionId} (${s.reportedBy}, ${s.eventKey})`).join(', ')}`);
			continue;
		}
		tally.real.actedOnce++;
		if (shipped[0].reportedBy === 'ERP Trigger') tally.real.byWebhook++;
		else tally.real.byPoll++;
	}
	for (const id of forged) {
		if ((byInvoice.get(id) ?? []).length === 0) continue;
		tally.forged.acted++;
		note('forged one acted', `invoice ${id} (never paid) shipped`);
	}
	const known = new Set([...paid, ...forged]);
	tally.unknown = shipments.filter((s) => !known.has(s.invoiceId)).length;
	tally.examples = list();
	return tally;
}

export type EventsTally = ReturnType<typeof tallyEvents>;

/** What must be 0 in a run, with what it counted: the report's checks, and the scenario's failures (nonZero). */
export const eventsChecks = (t: EventsTally, tokenLeaks: number): Array<[string, number]> => [
	['payments never acted on', t.real.lost],
	['payments acted on more than once', t.real.actedTwice],
	['forged payments acted on', t.forged.acted],
	['shipments of an invoice the run neither paid nor forged', t.unknown],
	['times the tokens show in the executions', tokenLeaks],
];
