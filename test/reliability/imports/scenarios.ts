import type { FaultSpec } from '../../../sandbox/faults';
import { percent, times } from '../faults/scenarios';
import type { Random } from '../../../sandbox/seed/random';
import { shuffled, type ReliabilitySession } from '../setup/context';

/**
 * A fault for a share of the run's creates (POST /contacts), always after the ERP saved the contact: the case in
 * which a create sent again would write it twice. Each fault of a scenario is of its own kind.
 */
export interface CreateFault {
	share: number;
	fault: Pick<FaultSpec, 'status'> & { kind: 'status' | 'drop' | 'html'; afterCommit: true };
}

/**
 * One import: rows of contacts sent through the ERP node's Contact › Create or Update, matched by
 * e-mail. Its title and the checks it must pass are derived from these settings (importTitle below, importChecks in tallyImport.ts).
 */
export interface ImportScenario {
	id: string;
	rows: number;
	/** How often the same rows are imported; every run after the first changes each row's first name. */
	runs: number;
	/** Contacts seeded before the first run that no row is about: they must come through unchanged. */
	otherContacts: number;
	/**
	 * Faults for the first run's creates, queued in the sandbox per POST in an order drawn from the run's seed
	 * (the other POSTs get a queued "no fault"). Lookups are never faulted, so every item can be settled.
	 */
	createFaults?: CreateFault[];
	/** The ERP node's Options. */
	options: { concurrency: number };
}

export const IMPORT_SCENARIOS: ImportScenario[] = [
	{ id: 'import-run-twice', rows: 1000, runs: 2, otherContacts: 0, options: { concurrency: 10 } },
	{
		id: 'import-create-faults',
		rows: 1000,
		runs: 1,
		otherContacts: 100,
		createFaults: [
			{ share: 0.2, fault: { kind: 'status', status: 500, afterCommit: true } },
			{ share: 0.1, fault: { kind: 'drop', afterCommit: true } },
		],
		options: { concurrency: 10 },
	},
];

/** What a fault does to a POST, e.g. "answered 500 after the ERP saved the contact". */
export function faultWords({ fault }: CreateFault): string {
	const what = fault.kind === 'drop' ? 'dropped' : fault.kind === 'html' ? `answered by a proxy's HTML ${fault.status ?? 502} page` : `answered ${fault.status ?? 500}`;
	return `${what} after the ERP saved the contact`;
}

/** What the import does and what goes wrong meanwhile, in words made from its settings. */
export function importTitle(s: ImportScenario): string {
	const faults = s.createFaults?.map((f, i) => `${percent(f.share)}${i === 0 ? ' of POST /contacts' : ''} are ${faultWords(f)}`).join(' and ');
	const what =
		s.runs > 1
			? `Import of ${s.rows} contacts run ${times(s.runs)}, every run after the first with changed first names`
			: `Import of ${s.rows} new contacts`;
	const others = s.otherContacts ? `, beside ${s.otherContacts} contacts no row is about` : '';
	return `${what}${others}${faults ? `, while ${faults} (in an order drawn from the seed)` : ''} — Create or Update, Concurrency ${s.options.concurrency}`;
}

/** How many of the run's creates each fault strikes: its share of them, exactly. */
export const strikesOf = (creates: number, { share }: CreateFault) => Math.round(creates * share);

/** The fault of each POST in the order they arrive (null: none), in an order drawn from `random`. */
export function createFaultPlan(creates: number, faults: CreateFault[], random: Random): Array<CreateFault | null> {
	const struck = faults.flatMap((fault) => Array<CreateFault>(strikesOf(creates, fault)).fill(fault));
	if (struck.length > creates) throw new Error(`the faults strike ${struck.length} of ${creates} creates`);
	return shuffled([...struck, ...Array<null>(creates - struck.length).fill(null)], random);
}

// A queued fault the sandbox logs but that changes nothing: it keeps the next POST's place in the queue.
const NO_FAULT: FaultSpec = { kind: 'latency', delayMs: 0 };

/**
 * Queues the plan in the sandbox for POST /contacts, one entry per run of equal faults: the n-th POST to arrive
 * gets the plan's n-th fault, whichever item sends it.
 */
export async function queueCreateFaults(session: ReliabilitySession, plan: Array<CreateFault | null>): Promise<void> {
	for (let start = 0; start < plan.length; ) {
		let end = start + 1;
		while (end < plan.length && plan[end] === plan[start]) end++;
		const match = { method: 'POST', path: '/contacts' };
		await session.sandbox.queueFault({ match, fault: plan[start]?.fault ?? NO_FAULT, times: end - start });
		start = end;
	}
}
