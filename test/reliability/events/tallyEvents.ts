/** Judging the events scenario: what the acting step did for each payment, against the ERP's own record of what was paid. */

/** One item of the acting step (Ship the Goods), from an execution. */
export interface Shipment {
	executionId: string;
	invoiceId: number;
	eventKey: string;
	reportedBy: string;
}

const EXAMPLES_EACH = 3;

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
	const examples: Record<string, string[]> = {};
	const note = (kind: string, text: string) => {
		const list = (examples[kind] ??= []);
		if (list.length < EXAMPLES_EACH) list.push(`${kind}: ${text}`);
	};
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
	tally.examples = Object.values(examples).flat();
	return tally;
}

export type EventsTally = ReturnType<typeof tallyEvents>;

/** Why the tally fails the scenario's rules; empty when it passes. */
export function eventsFailures(t: EventsTally): string[] {
	return [
		t.real.lost > 0 && `${t.real.lost} payments never acted on`,
		t.real.actedTwice > 0 && `${t.real.actedTwice} payments acted on more than once`,
		t.forged.acted > 0 && `${t.forged.acted} forged payments acted on`,
		t.unknown > 0 && `${t.unknown} shipments of an invoice the run neither paid nor forged`,
	].filter((failure): failure is string => typeof failure === 'string');
}
