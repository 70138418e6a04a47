import type { RetryEvidence } from '../faults/retries';
import type { RetryArithmetic, ScenarioRule, StrikeMinimum } from '../faults/rule';
import type { Tally } from '../faults/tally';
import type { ImportCheck } from '../imports/checks';
import type { ImportTally } from '../imports/tallyImport';

/** Error items (or failed polls) with the same message, and how many. */
type ErrorCounts<K extends string = 'items'> = Array<{ message: string } & Record<K, number>>;

/** Totals over a group of scenarios. */
export interface Totals {
	itemsAttempted: number;
	succeeded: number;
	errorItems: number;
	lost: number;
	duplicated: number;
	/** Error items that say the ERP may have done it: creates answered unclearly, left for the user to check. */
	unresolvedCreates: number;
}

/** One fault scenario: the ERP node in a real workflow while the sandbox misbehaves. */
export interface FaultScenarioResult extends Omit<Tally, 'errorMessages'> {
	id: string;
	title: string;
	/** What the node did and under which fault, in words. */
	setup: string;
	/** The sandbox fault settings and the node's options, as sent. */
	settings: Record<string, unknown>;
	/** Creates of a record with a natural key, which the node settles by a lookup: unresolvedCreates must be 0. */
	keyed: boolean;
	/** Must every item succeed, and why. */
	rule: ScenarioRule;
	/** Why Max Retries lets every item succeed, with this run's counts (scenarios where every item must succeed). */
	arithmetic?: RetryArithmetic;
	/** How often the fault had to strike, and why. */
	minStruck: StrikeMinimum;
	/** Requests whose last attempt the fault struck and nothing settled: each must be one error item. */
	unfinishedRequests: number;
	/** Batches on existing contacts: how many more contacts no item is about were seeded (they must stay as they were). */
	otherContacts?: number;
	/**
	 * What itemsAttempted counts: the input items of a batch, or for Return All the records the one input item's
	 * output should hold (one output item each); a Return All that failed clearly counts its one input item.
	 */
	counted: 'input items' | 'records';
	/** How often the fault struck, from the sandbox's request log (or, for timeouts, the node's errors). */
	faultsStruck: number;
	/** Batches: the struck requests and how the node sent them again, from the sandbox's request log. */
	retries?: RetryEvidence;
	requestsSent: number;
	/** Start to end of the n8n execution. */
	executionMs: number;
	/** Return All only: whether the node returned every record once, or failed clearly. */
	outcome?: 'complete' | 'failed clearly';
	/** Return All only: records in the ERP, records the node returned. */
	records?: { inErp: number; returned: number };
	/** Return All only: when the restart struck, from the sandbox's request log. */
	evidence?: Record<string, unknown>;
	errorMessages: ErrorCounts;
	/** Why the scenario fails its checks; empty when it passes. */
	failures: string[];
}

/** One run of an import: its counts, and the checks it was judged by. */
export interface ImportRunResult extends Omit<ImportTally, 'errorMessages'> {
	/** 1 for the first run. */
	run: number;
	executionStatus: string;
	/** Start to end of the n8n execution. */
	executionMs: number;
	checks: ImportCheck[];
	errorMessages: ErrorCounts;
}

/**
 * One import (Contact › Create or Update) run once or more, judged by the sandbox's records and request log. Totals
 * over all runs: rows imported (rows × runs), and what became of them; duplicated: after the last run, contacts
 * beyond one per row's e-mail.
 */
export interface ImportScenarioResult extends Totals {
	id: string;
	title: string;
	/** The scenario's settings, the run seed and the node's options, as used. */
	settings: Record<string, unknown>;
	runs: ImportRunResult[];
	created: number;
	updated: number;
	recovered: number;
	postsForExistingKeys: number;
	/** Checks that do not hold, with their run; empty when the scenario passes. */
	failures: string[];
}

/** One hostile input and what the package answered. */
export interface BadInputResult {
	id: string;
	area: 'node' | 'trigger';
	title: string;
	/** What was sent or configured. */
	input: string;
	/** Trigger cases: who answered; 'n8n' when n8n answers the request itself before the trigger runs. */
	answeredBy?: 'n8n' | 'ERP Trigger';
	/** How the case is judged: the answer must match these patterns; `fix` null: n8n's own answer, not judged on a fix. */
	expected: { field: string; fix: string | null; httpStatus?: number; requests?: string[] };
	actual: {
		message: string;
		description?: string;
		httpStatus?: number;
		executionStatus?: string;
		/** Node cases: how the workflow ran: active (production), or by hand when n8n refused to publish it. */
		ranAs?: 'active workflow' | 'manual run in the editor';
		/** Node cases: n8n's answer when it refused to publish the workflow. */
		publishRefused?: string;
		/** Node cases: the API requests the sandbox received (`METHOD /path status`). */
		requests?: string[];
		/** Node cases: records the ERP holds that differ from before the case (added, changed or gone). */
		recordsChanged?: number;
		/** Trigger cases: whether a workflow execution started. */
		started?: boolean;
	};
	clear: boolean;
	crash: boolean;
	failures: string[];
}

/** What the ERP Polling Trigger did, per workflow or over all of them. */
interface PollingCounts {
	/** Scheduled polls after the baseline (poll rounds in the sandbox's request log, by the workflow's page size). */
	polls: number;
	/** Of them, polls that began while the faults were on. */
	pollsUnderFaults: number;
	/** Polls that failed after the retries: n8n 2.41 saves each as an execution with status error. */
	failedPolls: number;
	reported: number;
	missed: number;
	twice: number;
	wrong: number;
}

/** One ERP Polling Trigger workflow of the polling scenario, judged against the ERP. */
export interface PollingWorkflowResult extends PollingCounts {
	key: string;
	title: string;
	/** The trigger's parameters, as set. */
	parameters: Record<string, unknown>;
	/** Executions that started with items (a successful poll that found nothing starts none). */
	executionsWithItems: number;
	/** The items of the poll that reported the second sentinel (it must hold that one item only): `event id`. */
	lastPollItems: string[];
	/** The failed polls' errors: message and how many polls. */
	errorMessages: ErrorCounts<'polls'>;
	/** The first problems found, in words. */
	examples: string[];
}

/** The ERP Polling Trigger in active workflows while the sandbox's faults strike its requests; counts over all workflows. */
export interface PollingScenarioResult extends PollingCounts {
	id: string;
	title: string;
	/** The sandbox faults, the trigger's options, the plan of changes, as used. */
	settings: Record<string, unknown>;
	contacts: { baseline: number; final: number };
	/** Changes made through the ERP's API (the two sentinels included among the creates). */
	changes: { creates: number; updates: number; deletes: number };
	/** The trigger's GET requests while the faults were on, from the sandbox's request log. */
	requests: { sent: number; struck: number; failedForGood: number };
	/**
	 * At most the chance that no poll under faults fails: each successful poll reads at least every page of the
	 * fewest contacts the ERP held (baseline minus deletes), each page failing for good with p^(1 + Max Retries).
	 */
	chanceNoPollFails: number;
	/** From the workflows' activation to the last sentinel reported. */
	wallMs: number;
	workflows: PollingWorkflowResult[];
	failures: string[];
}

export interface Results {
	generatedAt: string;
	n8nVersion: string;
	/** The seed of the random faults: RELIABILITY_SEED=<seed> npm run test:reliability replays them. */
	seed: number;
	faults: Totals & {
		/** The chance that some scenario where every item must succeed fails by bad luck (the sum of their chances). */
		chanceOfAnUnluckyFailure: number;
		scenarios: FaultScenarioResult[];
	};
	/** Imports with Contact › Create or Update: every item must succeed, unresolvedCreates must be 0 (keyed). */
	imports: Totals & { postsForExistingKeys: number; scenarios: ImportScenarioResult[] };
	/** The ERP Polling Trigger under faults; null when the scenario did not run. */
	polling: PollingScenarioResult | null;
	badInputs: { tried: number; clearErrors: number; crashes: number; cases: BadInputResult[] };
	/** null when the scan did not run (never 0 then). */
	tokenLeaks: number | null;
	/** Where the secrets were searched (characters per place), and what was found; null when the scan did not run. */
	secretsScan: SecretsScan | null;
}

export interface SecretsScan {
	searched: Record<string, number>;
	leaks: Array<{ place: string; secret: string; occurrences: number }>;
	/** Executions searched. */
	executions: number;
	/** How often "[redacted]" shows in them: the node removed a token an ERP answer echoed. */
	redactions: number;
}
