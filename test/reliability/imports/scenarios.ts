import type { FaultSpec } from '../../../sandbox/faults';

/**
 * A fault for a share of the run's creates (POST /contacts), always after the ERP saved the contact: the case in
 * which a create sent again would write it twice. Each fault of a scenario is of its own kind.
 */
export interface CreateFault {
	share: number;
	fault: Pick<FaultSpec, 'status'> & { kind: 'status' | 'drop' | 'html'; afterCommit: true };
}

/**
 * One import (issue 15): rows of contacts sent through the ERP node's Contact › Create or Update, matched by
 * e-mail. Its title and the checks it must pass are derived from these settings (title.ts, checks.ts).
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
