import type { RetryEvidence } from '../faults/chains';
import type { RetryArithmetic, ScenarioRule, StrikeMinimum } from '../faults/rule';
import type { Tally } from '../faults/tally';
import type { runImportScenario } from '../imports/runImport';
import type { runPollingScenario } from '../polling/runPolling';
import type { ConfirmationScenarioResult } from '../confirmations/runConfirmations';
import type { EventsOnceResult } from '../events/runEventsOnce';
import type { scanForSecrets } from '../secrets/scan';
import { sum, sums } from '../support/batch';

/** One fault scenario: the ERP node in a real workflow while the sandbox misbehaves (two builders make it). */
export interface FaultScenarioResult extends Tally {
	id: string;
	title: string;
	setup: string;
	settings: Record<string, unknown>;
	/** Creates of a record with a natural key, which the node settles by a lookup: unresolvedCreates must be 0. */
	keyed: boolean;
	rule: ScenarioRule;
	/** Why Max Retries lets every item succeed, with this run's counts (scenarios where every item must succeed). */
	arithmetic?: RetryArithmetic;
	minStruck: StrikeMinimum;
	/** Requests whose last attempt the fault struck and nothing settled: each must be one error item. */
	unfinishedRequests: number;
	/** Batches on existing contacts: the contacts no item is about (they must stay as they were). */
	otherContacts?: number;
	/** What itemsAttempted counts: input items, or for a Return All that did not fail clearly the records read. */
	counted: 'input items' | 'records';
	faultsStruck: number;
	/** Batches: the struck requests and how the node sent them again, from the sandbox's request log. */
	retries?: RetryEvidence;
	requestsSent: number;
	executionMs: number;
	/** Return All only: the outcome, the records, and when the restart struck (from the request log). */
	outcome?: 'complete' | 'failed clearly';
	records?: { inErp: number; returned: number };
	evidence?: Record<string, unknown>;
	failures: string[];
}

export type ImportScenarioResult = Awaited<ReturnType<typeof runImportScenario>>;
export type PollingScenarioResult = Awaited<ReturnType<typeof runPollingScenario>>;
export type SecretsScan = Awaited<ReturnType<typeof scanForSecrets>>;

/** One hostile input and what the package answered (a node case or a trigger case: two builders make it). */
export interface BadInputResult {
	id: string;
	area: 'node' | 'trigger';
	title: string;
	input: string;
	/** Trigger cases: 'n8n' when n8n answers the request itself before the trigger runs. */
	answeredBy?: 'n8n' | 'ERP Trigger';
	/** The patterns the answer must match; `fix` null: n8n's own answer, not judged on a fix. */
	expected: { field: string; fix: string | null; httpStatus?: number; requests?: string[] };
	actual: {
		message: string;
		description?: string;
		httpStatus?: number;
		executionStatus?: string;
		ranAs?: 'active workflow' | 'manual run in the editor';
		/** Node cases: n8n's answer when it refused to publish the workflow (the case then ran by hand). */
		publishRefused?: string;
		requests?: string[];
		recordsChanged?: number;
		started?: boolean;
	};
	clear: boolean;
	crash: boolean;
	failures: string[];
}

const COUNTED = ['itemsAttempted', 'succeeded', 'errorItems', 'lost', 'duplicated', 'unresolvedCreates'] as const;

/** Totals over a group of scenarios; unresolved creates are error items that say the ERP may have done it. */
const totals = (scenarios: Array<Pick<FaultScenarioResult, (typeof COUNTED)[number]>>) => sums(scenarios, COUNTED);

export type Results = ReturnType<typeof assembleResults>;

/** The figures tooling reads: totals over the fault scenarios, the imports, the polling trigger and the hostile inputs, and the leaks found. */
export function assembleResults(
	n8nVersion: string,
	seed: number,
	scenarios: FaultScenarioResult[],
	imports: ImportScenarioResult[],
	polling: PollingScenarioResult | null,
	cases: BadInputResult[],
	secretsScan: SecretsScan | null,
	confirmations: ConfirmationScenarioResult | null = null,
	events: EventsOnceResult | null = null,
) {
	return {
		generatedAt: new Date().toISOString(),
		n8nVersion,
		seed,
		faults: {
			...totals(scenarios),
			/** The chance that some scenario where every item must succeed fails by bad luck (the sum of theirs). */
			chanceOfAnUnluckyFailure: scenarios.reduce((total, s) => total + (s.arithmetic?.chance ?? 0), 0),
			scenarios,
		},
		imports: { ...totals(imports), postsForExistingKeys: sum(imports, 'postsForExistingKeys'), scenarios: imports },
		/** null: the scenario did not run (likewise confirmations and events). */
		polling,
		confirmations,
		events,
		badInputs: { tried: cases.length, clearErrors: cases.filter((c) => c.clear).length, crashes: cases.filter((c) => c.crash).length, cases },
		/** null when the scan did not run (never 0 then). */
		tokenLeaks: secretsScan ? sum(secretsScan.leaks, 'occurrences') : null,
		secretsScan,
	};
}
