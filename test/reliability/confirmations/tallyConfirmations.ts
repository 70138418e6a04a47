/** Judging the confirmation scenario: what reached which output of the ERP Trigger, against the sandbox's own record of what it sent. */
import { examples } from '../support/batch';

export type ConfirmationStatus = 'confirmed' | 'contradicted' | 'couldNotConfirm' | 'unconfirmable';

/** One delivery as the sandbox logged it: real (an event in the ERP caused it) or forged. */
export interface SentDelivery {
	id: string;
	event: string;
	forged: boolean;
	/** The receiver's answer to each attempt (undefined: no answer). */
	statuses: Array<number | undefined>;
}

/** One item the trigger put out, from an execution. */
export interface SeenItem {
	executionId: string;
	deliveryKey: string;
	status: ConfirmationStatus;
	reason?: string;
	/** Whether the acting step (after Confirmed) received it. */
	acted: boolean;
}

/** Tallies the items against the deliveries (both from the same run). */
export function tallyConfirmations(sent: SentDelivery[], seen: SeenItem[]) {
	const byKey = new Map<string, SeenItem[]>();
	for (const item of seen) byKey.set(item.deliveryKey, [...(byKey.get(item.deliveryKey) ?? []), item]);
	const { note, list } = examples();
	const statusesOf = (items: SeenItem[], status: ConfirmationStatus) => items.filter((i) => i.status === status || (status === 'confirmed' && i.acted));
	// Real ones: confirmed at least once, else passed on as could not confirm, else lost (on no output or only
	// contradicted); refused: called contradicted or unconfirmable at least once; answered503: their first attempt.
	// Forged ones: confirmed (on Confirmed or at the acting step: must be 0), else by their outputs, unseen on none.
	// startedTwice: confirmed in more than one execution; unknownKeys: items for a delivery the sandbox never sent.
	const tally = {
		real: { deliveries: 0, confirmed: 0, couldNotConfirm: 0, lost: 0, refused: 0, answered503: 0 },
		forged: { deliveries: 0, confirmed: 0, contradicted: 0, couldNotConfirm: 0, unconfirmable: 0, unseen: 0 },
		startedTwice: 0,
		withoutReason: 0,
		unknownKeys: 0,
		examples: [] as string[],
	};
	const sentIds = new Set(sent.map((d) => d.id));
	for (const delivery of sent) {
		const items = byKey.get(delivery.id) ?? [];
		const confirmed = new Set(statusesOf(items, 'confirmed').map((i) => i.executionId));
		const unsure = statusesOf(items, 'couldNotConfirm');
		const refused = [...statusesOf(items, 'contradicted'), ...statusesOf(items, 'unconfirmable')];
		if (confirmed.size > 1) {
			tally.startedTwice++;
			note('started twice', `${delivery.event} ${delivery.id} confirmed in executions ${[...confirmed].join(', ')}`);
		}
		if (!delivery.forged) {
			tally.real.deliveries++;
			if (delivery.statuses[0] === 503) tally.real.answered503++;
			if (refused.length > 0) {
				tally.real.refused++;
				note('real one refused', `${delivery.event} ${delivery.id}: ${refused[0].status} (${refused[0].reason ?? 'no reason'})`);
			}
			if (confirmed.size > 0) tally.real.confirmed++;
			else if (unsure.length > 0) tally.real.couldNotConfirm++;
			else {
				tally.real.lost++;
				note('real one lost', `${delivery.event} ${delivery.id} (answers ${delivery.statuses.join(', ')}): ${items.map((i) => i.status).join(', ') || 'on no output'}`);
			}
		} else {
			tally.forged.deliveries++;
			if (confirmed.size > 0) {
				tally.forged.confirmed++;
				note('forged one confirmed', `${delivery.event} ${delivery.id}`);
			} else if (items.length === 0) tally.forged.unseen++;
			else if (statusesOf(items, 'contradicted').length > 0) tally.forged.contradicted++;
			else if (statusesOf(items, 'unconfirmable').length > 0) tally.forged.unconfirmable++;
			else tally.forged.couldNotConfirm++;
		}
		for (const item of unsure) {
			if (item.reason) continue;
			tally.withoutReason++;
			note('could not confirm without a reason', `${delivery.event} ${delivery.id}`);
		}
	}
	tally.unknownKeys = seen.filter((item) => !sentIds.has(item.deliveryKey)).length;
	tally.examples = list();
	return tally;
}

export type ConfirmationTally = ReturnType<typeof tallyConfirmations>;

/** What must be 0 in a run, with what it counted: the report's checks, and the scenario's failures (nonZero). */
export const confirmationChecks = (t: ConfirmationTally, tokenLeaks: number): Array<[string, number]> => [
	['real deliveries lost (neither confirmed nor passed on as could not confirm)', t.real.lost],
	['real deliveries called contradicted or unconfirmable', t.real.refused],
	['forged deliveries on Confirmed or at the acting step', t.forged.confirmed],
	['deliveries confirmed in more than one execution', t.startedTwice],
	['could-not-confirm items without a reason', t.withoutReason],
	['items for a delivery the sandbox never sent', t.unknownKeys],
	['times the tokens show in the executions', tokenLeaks],
];
