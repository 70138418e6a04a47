export type Company = string | null;

/** One item the ERP Polling Trigger output, as the checks read it. */
export interface Report {
	executionId: string;
	event: string;
	id: number;
	/** The company the item says the contact has now: `data.company`, or `changes.company.current` for an update. */
	company: Company;
	/** Updates: `changes.company.previous`. */
	previous?: Company;
	/** When the poll that reported it began (the item's `timestamp`), in ms. */
	polledAt: number;
}

/** What really happened, from the sandbox and from the changes the scenario made. */
export interface GroundTruth {
	/** The contacts when the trigger took its baseline. */
	baseline: Map<number, Company>;
	final: Map<number, Company>;
	created: Set<number>;
	/** Contacts the scenario deleted, with when the ERP had answered the DELETE (ms). */
	deletedAt: Map<number, number>;
	/** Contacts whose company the scenario set to the watched value (by a create or an update). */
	tookValue: Set<number>;
}

export interface PollingTally {
	reported: number;
	/** A change the ERP holds that no item reported (a new contact, a company, a step between two reports). */
	missed: number;
	/** Something reported again: a contact created twice, the same company twice in a row, a deleted contact after its deletion, a baseline contact as new. */
	twice: number;
	/** Items about something that did not happen (a value the contact never took, a contact the scenario never made). */
	wrong: number;
	examples: string[];
}

const MAX_EXAMPLES = 12;
const shown = (company: Company | undefined) => JSON.stringify(company ?? null);

function counter() {
	const tally: PollingTally = { reported: 0, missed: 0, twice: 0, wrong: 0, examples: [] };
	const note = (kind: 'missed' | 'twice' | 'wrong', id: number, text: string, count = 1) => {
		tally[kind] += count;
		if (tally.examples.length < MAX_EXAMPLES) tally.examples.push(`${kind}: contact ${id}: ${text}`);
	};
	return { tally, note };
}

function byContact(reports: Report[]): Map<number, Report[]> {
	const grouped = new Map<number, Report[]>();
	for (const report of reports) grouped.set(report.id, [...(grouped.get(report.id) ?? []), report]);
	return grouped;
}

const everyId = (truth: GroundTruth, grouped: Map<number, Report[]>) =>
	[...new Set([...truth.baseline.keys(), ...truth.created, ...grouped.keys()])].sort((a, b) => a - b);

function afterDeletion(truth: GroundTruth, id: number, reports: Report[], note: ReturnType<typeof counter>['note']): void {
	const deletedAt = truth.deletedAt.get(id);
	if (deletedAt === undefined) return;
	const late = reports.filter((r) => r.polledAt > deletedAt).length;
	if (late > 0) note('twice', id, `reported by ${late} poll(s) that began after its deletion`, late);
}

/**
 * Record Added or Updated with Fields to Watch `company`, judged against the ERP: every contact created that
 * still exists is reported as created once; the company last reported for each contact (its baseline value, the
 * created item's, or the last update's `current`) is the one the ERP holds at the end; each update starts from
 * the value last reported (`previous`), else a change between the two went unreported; no update repeats the
 * value last reported; nothing comes from a poll that began after the contact's deletion.
 */
export function tallyChanges(truth: GroundTruth, reports: Report[], createdEvent: string, updatedEvent: string): PollingTally {
	const { tally, note } = counter();
	tally.reported = reports.length;
	const grouped = byContact(reports);
	for (const id of everyId(truth, grouped)) {
		const mine = grouped.get(id) ?? [];
		const creates = mine.filter((r) => r.event === createdEvent).length;
		const exists = truth.final.has(id);
		if (truth.baseline.has(id)) {
			if (creates > 0) note('twice', id, `reported as created ${creates} time(s), though it was in the baseline`, creates);
		} else if (truth.created.has(id)) {
			if (creates === 0 && exists) note('missed', id, 'created, still in the ERP, never reported as created');
			if (creates > 1) note('twice', id, `reported as created ${creates} times`, creates - 1);
		} else {
			note('wrong', id, 'reported, but neither in the baseline nor created by the scenario', mine.length);
			continue;
		}
		afterDeletion(truth, id, mine, note);
		for (const r of mine) if (r.event !== createdEvent && r.event !== updatedEvent) note('wrong', id, `unexpected event ${r.event}`);

		let known = truth.baseline.has(id);
		let last: Company = truth.baseline.get(id) ?? null;
		for (const r of mine) {
			if (r.event === updatedEvent && known) {
				// A repeated update is one thing reported twice, not also a step missed.
				if (shown(r.company) === shown(last)) note('twice', id, `${shown(last)} reported twice in a row`);
				else if (shown(r.previous) !== shown(last)) note('missed', id, `an update from ${shown(r.previous)} came after ${shown(last)} was last reported`);
			}
			if (r.event === createdEvent || r.event === updatedEvent) {
				known = true;
				last = r.company;
			}
		}
		if (exists && known && shown(last) !== shown(truth.final.get(id))) {
			note('missed', id, `last reported ${shown(last)}, the ERP holds ${shown(truth.final.get(id))}`);
		}
	}
	return tally;
}

/**
 * Field Becomes a Value (company becomes `value`), where the scenario never moves a contact away from the value
 * once it has it: each contact that took the value and still has it is reported exactly once (a deleted one at
 * most once); no contact that never took it is reported; every item carries the value; nothing comes from a poll
 * that began after the contact's deletion.
 */
export function tallyValue(truth: GroundTruth, reports: Report[], event: string, value: string): PollingTally {
	const { tally, note } = counter();
	tally.reported = reports.length;
	const grouped = byContact(reports);
	for (const id of everyId(truth, grouped)) {
		const mine = grouped.get(id) ?? [];
		for (const r of mine) {
			if (r.event !== event) note('wrong', id, `unexpected event ${r.event}`);
			else if (r.company !== value) note('wrong', id, `reported with company ${shown(r.company)}, not ${shown(value)}`);
		}
		if (!truth.tookValue.has(id)) {
			if (mine.length > 0) note('wrong', id, `reported ${mine.length} time(s), though the scenario never set its company to ${shown(value)}`, mine.length);
			continue;
		}
		afterDeletion(truth, id, mine, note);
		if (mine.length === 0 && truth.final.get(id) === value) note('missed', id, `its company became ${shown(value)} and stayed so, never reported`);
		if (mine.length > 1) note('twice', id, `reported ${mine.length} times`, mine.length - 1);
	}
	return tally;
}
