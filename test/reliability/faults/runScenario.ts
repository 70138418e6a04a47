import { errorMessages, executionMs, looksLikeCrash, runBatch, settledBatch } from '../support/batch';
import { type ReliabilitySession, scenarioRandom } from '../setup/context';
import type { FaultScenarioResult } from '../report/results';
import { ACCEPTED_CHANCE, requestChains, retryEvidence } from './chains';
import { queueRecordFaults } from './recordFaults';
import { retryArithmetic, ruleOf, strikeMinimum, struckTest, unfinishedRequests } from './rule';
import { type FaultScenario, type StoredRecord, SUBJECTS, titleOf } from './scenarios';
import { type BatchInput, tally } from './tally';
import { sleep } from '../../../tooling/host/processes';
import { waitFor } from '../../../sandbox/adminClient';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { pairedIndex } from '../../../tooling/host/executions';

/** Records seeded beyond the ones a scenario works on, which must come through unchanged. */
const UNTOUCHED = 100;

function batchInputs(scenario: FaultScenario, existing: StoredRecord[]): BatchInput[] {
	return Array.from({ length: scenario.items }, (_, i): BatchInput => {
		if (scenario.kind === 'create') {
			const key = scenario.subject === 'order' ? `${scenario.id}-${i}` : `${scenario.id}-${i}@reliability.example`;
			return { kind: 'create', first: `Item${i}`, key };
		}
		if (scenario.kind === 'update') return { kind: 'update', id: existing[i].id, value: `${scenario.id} ${i}` };
		return { kind: scenario.kind, id: existing[i].id };
	});
}

/** Why the scenario fails its checks (`r`: its result so far; `queued`: strikes queued for single records). */
function failuresOf(scenario: FaultScenario, r: Omit<FaultScenarioResult, 'failures'>, queued: number, executionStatus: string): string[] {
	const { faultsStruck: struck, retries, arithmetic } = r;
	const failures: string[] = [];
	if (executionStatus !== 'success') failures.push(`the execution ended "${executionStatus}", not "success" (On Error: Continue is on)`);
	if (r.lost > 0) failures.push(`${r.lost} items reported OK that the ERP's records do not bear out`);
	if (r.duplicated > 0) failures.push(`${r.duplicated} records written twice`);
	if (r.resent > 0) failures.push(`${r.resent} creates sent again without proof that the earlier attempt wrote nothing`);
	if (r.collateral > 0) failures.push(`${r.collateral} records no item was about changed or disappeared`);
	if (r.outputItems !== r.itemsAttempted || r.unpaired > 0) {
		failures.push(`${r.itemsAttempted} input items gave ${r.outputItems} output items, ${r.unpaired} not paired one to one`);
	}
	if (r.unclearErrors > 0) failures.push(`${r.unclearErrors} error items without a clear message and description`);
	if (struck === 0) failures.push('the fault never struck: the scenario proved nothing');
	else if (struck < r.minStruck.count) failures.push(`the fault struck ${struck} times, fewer than ${r.minStruck.count}: ${r.minStruck.why}`);
	if (struck < queued) failures.push(`the fault struck ${struck} times of the ${queued} queued for single records`);
	if (r.errorItems !== r.unfinishedRequests) {
		failures.push(`${r.errorItems} error items, but the fault ended ${r.unfinishedRequests} requests: every error item must be one request the fault ended, and no more`);
	}
	const { everyItemSucceeds } = r.rule;
	if (everyItemSucceeds) {
		if (r.succeeded !== r.itemsAttempted) failures.push(`${r.itemsAttempted - r.succeeded} items did not succeed although the node gets past every fault here`);
		if (arithmetic && arithmetic.chance !== null && arithmetic.chance >= ACCEPTED_CHANCE) {
			failures.push(`Max Retries does not make a failure improbable enough: ${arithmetic.text}`);
		}
	}
	if (scenario.keyed && everyItemSucceeds && r.unresolvedCreates > 0) {
		failures.push(`${r.unresolvedCreates} creates of keyed records left unresolved: the node must settle them by looking the key up`);
	}
	if (scenario.backOffGrows) {
		// The shortest wait is the back-off itself: a bare 429 also slows the ERP's shared pace, whose queue only adds to
		// waits (to the 2nd retries more than to the 3rd in one run on 2026-12-02: 528, 3523, 2750 ms). So each k-th
		// retry's shortest wait must be at least 2^(k-1) times the 1st's, less a quarter for the jitter: exponential.
		const shortest = (retries?.waitsBeforeRetry ?? []).map((w) => w.minMs);
		if (shortest.length < 2 || shortest.some((m, i) => i > 0 && m < shortest[0] * 2 ** i * 0.75)) {
			failures.push(`the shortest waits before the 1st, 2nd… retry do not grow as a back-off: ${shortest.join(', ')} ms`);
		}
	}
	return failures;
}

/** Runs one scenario on a freshly reset sandbox and judges it by the sandbox's records and request log. */
export async function runFaultScenario(session: ReliabilitySession, scenario: FaultScenario): Promise<FaultScenarioResult> {
	const subject = SUBJECTS[scenario.subject ?? 'contact'];
	await session.sandbox.reset();
	if (scenario.kind !== 'create') await session.sandbox.seed({ [subject.records]: scenario.items + UNTOUCHED });
	const before: StoredRecord[] = await session.sandbox.records(subject.records);
	const inputs = batchInputs(scenario, before);

	const { faultSeed } = session.ctx;
	await session.sandbox.setFaults({ ...scenario.faults, seed: faultSeed });
	const { recordFaults } = scenario;
	let queued = 0;
	const prepare = async () => {
		if (recordFaults) queued = await queueRecordFaults(session, recordFaults, before.slice(0, scenario.items).map((c) => c.id), scenarioRandom(faultSeed, scenario.id));
	};
	const parameters = { ...subject.parameters(scenario.kind, scenario.keyed ?? false), options: scenario.options };
	const { run, after, requests } = await settledBatch(session, scenario.id, parameters, inputs, subject.records, { prepare, lateMs: recordFaults?.fault.delayMs ?? 0 });

	const { errorMessages: messages, ...counts } = tally(inputs, run.items, before, after, requests, scenario.keyed, subject);
	const chains = requestChains(requests);
	const isStruck = struckTest(scenario);
	const rule = ruleOf(scenario);
	const arithmetic = rule.everyItemSucceeds ? retryArithmetic(scenario, chains) : undefined;
	const others = scenario.kind === 'create' ? undefined : UNTOUCHED;
	const result = {
		id: scenario.id,
		title: titleOf(scenario),
		setup: `${scenario.items} items, ERP node: ${subject.work[scenario.kind]}, On Error: Continue${others ? `; ${others} more ${subject.records} no item is about` : ''}`,
		settings: {
			sandboxFaults: { ...scenario.faults, seed: faultSeed },
			...(recordFaults ? { queuedForSingleRecords: { method: recordFaults.method, fault: recordFaults.fault, groups: recordFaults.groups, strikes: queued } } : {}),
			nodeOptions: scenario.options,
		},
		keyed: scenario.keyed ?? false,
		rule,
		...(arithmetic ? { arithmetic } : {}),
		minStruck: strikeMinimum(scenario, queued),
		unfinishedRequests: unfinishedRequests(scenario, chains, isStruck),
		...(others ? { otherContacts: others } : {}),
		...counts,
		counted: 'input items' as const,
		faultsStruck: requests.filter(isStruck).length,
		retries: retryEvidence(chains, isStruck),
		requestsSent: requests.length,
		executionMs: executionMs(run.execution),
		errorMessages: messages,
	};
	return { ...result, failures: failuresOf(scenario, result, queued, run.execution.status) };
}

export interface RestartScenario {
	id: string;
	contacts: number;
	/** The sandbox holds the request for the page after this one, and restarts while it holds it. */
	atPage: number;
	downMs: number;
	maxRetries: number;
	/** The node's Concurrency: above 1, pages read ahead are in flight when the restart strikes. */
	concurrency: number;
	/**
	 * What the node must do: return every record once (it waits out the restart: a refused connection never
	 * reached the ERP and a read is sent again), or fail with one clear error (Max Retries runs out while the ERP
	 * is down), never anything in between.
	 */
	expect: 'complete' | 'failed clearly';
}

export const RESTART_SCENARIOS: RestartScenario[] = [
	{ id: 'restart-during-return-all', contacts: 20_000, atPage: 80, downMs: 3000, maxRetries: 5, concurrency: 5, expect: 'complete' },
	{ id: 'outage-during-return-all', contacts: 20_000, atPage: 80, downMs: 20_000, maxRetries: 2, concurrency: 5, expect: 'failed clearly' },
];

const restartTitleOf = (s: RestartScenario) =>
	`The ERP ${s.expect === 'complete' ? 'restarts' : 'goes down'} (down ${s.downMs / 1000} s) in the middle of Get Many, ` +
	`Return All over ${s.contacts} contacts, Concurrency ${s.concurrency}, Max Retries ${s.maxRetries}: it must ${s.expect === 'complete' ? 'return every record once' : 'fail with one clear error'}`;

const pageRequests = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === 'GET' && r.path === '/contacts');

/** How long the sandbox holds the page request the restart cuts: the suite must restart it within that time. */
const HOLD_MS = 10_000;
// The walk reaches the held page in seconds; this only stops a broken one from blocking the suite.
const REACH_LIMIT_MS = 5 * 60_000;

/**
 * Lets the first `atPage` page requests through (a queued fault without delay) and holds the next one, so that
 * the restart strikes that very request, however fast or slow the machine is.
 */
async function holdAfterPage(session: ReliabilitySession, atPage: number): Promise<void> {
	const match = { method: 'GET', path: '/contacts' };
	await session.sandbox.queueFault({ match, fault: { kind: 'latency', delayMs: 0 }, times: atPage });
	await session.sandbox.queueFault({ match, fault: { kind: 'latency', delayMs: HOLD_MS }, times: 1 });
}

/** Once the held request is in (the queue is used up), restarts the sandbox and waits until it is back. */
async function restartWhileHeld(session: ReliabilitySession, scenario: RestartScenario): Promise<{ downAt: number }> {
	const deadline = Date.now() + REACH_LIMIT_MS;
	while ((await session.sandbox.faults()).queue.length > 0) {
		if (Date.now() > deadline) throw new Error(`the walk did not reach page ${scenario.atPage + 1} within ${REACH_LIMIT_MS / 1000} s`);
		await sleep(20);
	}
	await session.sandbox.restart(scenario.downMs);
	await waitFor(() => session.sandbox.health().then(() => false, () => true));
	const downAt = Date.now();
	await session.sandbox.waitUntilUp(scenario.downMs + 10_000);
	return { downAt };
}

/** The held request is logged when its hold ends (its answer went nowhere): wait for it, so the log is complete. */
async function heldRequestLogged(session: ReliabilitySession, since: number, atPage: number): Promise<void> {
	const held = async () => pageRequests(await session.sandbox.requests(since)).filter((r) => r.fault?.kind === 'latency').length > atPage;
	await waitFor(held, HOLD_MS + 10_000);
}

/**
 * A restart while Get Many (Return All) walks the pages. The node must either return every record exactly
 * once, or fail with one clear error item and no partial list; the sandbox's records are the reference.
 */
export async function runRestartScenario(session: ReliabilitySession, scenario: RestartScenario): Promise<FaultScenarioResult> {
	await session.sandbox.reset();
	await session.sandbox.seed({ contacts: scenario.contacts });
	const stored = await session.sandbox.records('contacts');
	const options = { maxRetries: scenario.maxRetries, concurrency: scenario.concurrency };
	await holdAfterPage(session, scenario.atPage);
	let downAt = 0;
	const run = await runBatch(session, scenario.id, { resource: 'contact', operation: 'getAll', returnAll: true, options }, [{}], async () => {
		({ downAt } = await restartWhileHeld(session, scenario));
	});
	await heldRequestLogged(session, run.since, scenario.atPage);

	const requests = await session.sandbox.requests(run.since);
	const unchanged = new Map((await session.sandbox.records('contacts')).map((c) => [c.id, JSON.stringify(c)]));
	const collateral = stored.filter((c) => unchanged.get(c.id) !== JSON.stringify(c)).length;
	const pages = pageRequests(requests);
	// The queued faults met the first atPage + 1 page requests in order of arrival; the held one is logged last,
	// when its hold ends. Pages read ahead beside it carry no fault, and the restart may cut them too.
	const queued = pages.filter((r) => r.fault?.source === 'queue' && r.fault.kind === 'latency');
	const held = queued.length === scenario.atPage + 1 ? queued.reduce((last, r) => (r.seq > last.seq ? r : last)) : undefined;
	const passed = queued.filter((r) => r !== held && Date.parse(r.at) < downAt);
	const after = pages.filter((r) => Date.parse(r.at) >= downAt);
	const errors = run.items.filter((item) => 'error' in item.json);
	const records = run.items.filter((item) => !('error' in item.json)).map((item) => item.json);
	const ids = records.map((record) => record.id as number);
	const returned = new Set(ids);
	const emails = new Map(stored.map((c) => [c.id, c.email]));
	// An output record that is not in the ERP, or carries another record's data.
	const wrong = records.filter((record) => !emails.has(record.id as number) || emails.get(record.id as number) !== record.email).length;
	const intact = new Set(records.filter((record) => emails.get(record.id as number) === record.email).map((record) => record.id as number));
	const failedClearly =
		run.items.length === 1 &&
		errors.length === 1 &&
		typeof errors[0].json.description === 'string' &&
		!looksLikeCrash(`${String(errors[0].json.error)} ${String(errors[0].json.description)}`);
	const complete = errors.length === 0 && wrong === 0 && ids.length === stored.length && stored.every((c) => intact.has(c.id));

	const outcome = complete ? 'complete' : failedClearly ? 'failed clearly' : undefined;
	const failures: string[] = [];
	if (run.execution.status !== 'success') failures.push(`the execution ended "${run.execution.status}", not "success"`);
	if (outcome !== scenario.expect) {
		failures.push(
			`expected "${scenario.expect}", got ${outcome ? `"${outcome}"` : 'neither every record once nor one clear error'}: ` +
				`${ids.length} records (${returned.size} distinct, ${wrong} not as in the ERP) of ${stored.length}, ${errors.length} error items`,
		);
	}
	// Struck in the middle: the page requests before the held one were answered, the restart cut the held one,
	// and the walk went on after it or failed on it.
	const struck = held !== undefined && Date.parse(held.at) < downAt && passed.length === scenario.atPage && (after.length > 0 || errors.length > 0);
	if (!struck) failures.push(`the restart did not cut page request ${scenario.atPage + 1} after ${scenario.atPage} had been answered`);
	if (collateral > 0) failures.push(`${collateral} records changed or disappeared during a read`);
	// A clear failure returns no records and says so: nothing it returned is missing.
	const lost = failedClearly ? 0 : stored.filter((c) => !intact.has(c.id)).length;
	// A walk that returns records is counted by record; one that fails clearly by its one input item, so that
	// succeeded + error items always add up to the items attempted.
	const counted = failedClearly ? 'input items' : 'records';
	return {
		id: scenario.id,
		title: restartTitleOf(scenario),
		setup:
			`1 input item, ERP node Get Many contacts with Return All over ${scenario.contacts} contacts (${new Set(pages.map((r) => r.query.page)).size} pages asked for); ` +
			`the sandbox lets ${scenario.atPage} page requests through (a queued fault without delay), holds the next one and restarts while holding it; ` +
			(failedClearly
				? 'it failed with one error item, so the item counted is the input item'
				: `its output is one item per contact, so the items counted are the ${scenario.contacts} contacts`),
		settings: { restart: { afterPage: scenario.atPage, downMs: scenario.downMs }, nodeOptions: options },
		keyed: false,
		rule: {
			everyItemSucceeds: scenario.expect === 'complete',
			why:
				scenario.expect === 'complete'
					? 'a refused connection never reached the ERP and a read is sent again: the node waits out the restart and must return every record once'
					: 'Max Retries runs out while the ERP is down: the node must fail with one clear error and return no partial list',
		},
		minStruck: { count: 1, chanceFewer: null, why: `the restart must cut page request ${scenario.atPage + 1}` },
		unfinishedRequests: failedClearly ? 1 : 0,
		counted,
		itemsAttempted: failedClearly ? 1 : stored.length,
		outputItems: run.items.length,
		unpaired: run.items.filter((item) => pairedIndex(item) !== 0).length,
		succeeded: records.length,
		errorItems: errors.length,
		lost,
		duplicated: ids.length - returned.size,
		collateral,
		committedDespiteError: 0,
		unclearErrors: errors.length > 0 && !failedClearly ? errors.length : 0,
		unresolvedCreates: 0,
		resent: 0,
		faultsStruck: struck ? 1 : 0,
		requestsSent: requests.length,
		executionMs: executionMs(run.execution),
		outcome,
		records: { inErp: stored.length, returned: ids.length },
		evidence: {
			pagesServedBeforeRestart: passed.length,
			pageCutByRestart: held ? Number(held.query.page) : null,
			lastPageBeforeRestart: passed.length ? Math.max(...passed.map((r) => Number(r.query.page))) : null,
			pagesServedAfterRestart: after.length,
			firstPageAfterRestart: after.length ? Number(after[0].query.page) : null,
			msBetweenLastPageBeforeAndFirstAfter: after.length && passed.length ? Date.parse(after[0].at) - Math.max(...passed.map((r) => Date.parse(r.at))) : null,
		},
		errorMessages: errorMessages(errors.map((item) => item.json)),
		failures,
	};
}
