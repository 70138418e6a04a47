import { runBatch, type BatchRun } from '../support/batch';
import { settle } from '../support/settle';
import type { ReliabilitySession } from '../setup/context';
import type { FaultScenarioResult } from '../report/results';
import { scenarioRandom } from '../setup/seed';
import { requestChains } from './chains';
import { queueRecordFaults } from './recordFaults';
import { retryEvidence, type RetryEvidence } from './retries';
import { ACCEPTED_CHANCE } from './probability';
import { retryArithmetic, ruleOf, strikeMinimum, struckTest, unfinishedRequests, type RetryArithmetic, type StrikeMinimum } from './rule';
import type { FaultScenario } from './scenarios';
import { SUBJECTS, type StoredRecord } from './subjects';
import { tally, type BatchInput, type Tally } from './tally';
import { titleOf } from './title';

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

interface Observed {
	tally: Tally;
	struck: number;
	/** Strikes queued for single records (0: none). */
	queued: number;
	minStruck: StrikeMinimum;
	unfinished: number;
	retries: RetryEvidence;
	arithmetic?: RetryArithmetic;
	executionStatus: string;
}

function failuresOf(scenario: FaultScenario, o: Observed): string[] {
	const { tally: t, struck, queued, retries, arithmetic } = o;
	const failures: string[] = [];
	if (o.executionStatus !== 'success') failures.push(`the execution ended "${o.executionStatus}", not "success" (On Error: Continue is on)`);
	if (t.lost > 0) failures.push(`${t.lost} items reported OK that the ERP's records do not bear out`);
	if (t.duplicated > 0) failures.push(`${t.duplicated} records written twice`);
	if (t.resent > 0) failures.push(`${t.resent} creates sent again without proof that the earlier attempt wrote nothing`);
	if (t.collateral > 0) failures.push(`${t.collateral} records no item was about changed or disappeared`);
	if (t.outputItems !== t.itemsAttempted || t.unpaired > 0) {
		failures.push(`${t.itemsAttempted} input items gave ${t.outputItems} output items, ${t.unpaired} not paired one to one`);
	}
	if (t.unclearErrors > 0) failures.push(`${t.unclearErrors} error items without a clear message and description`);
	if (struck === 0) failures.push('the fault never struck: the scenario proved nothing');
	else if (struck < o.minStruck.count) failures.push(`the fault struck ${struck} times, fewer than ${o.minStruck.count}: ${o.minStruck.why}`);
	if (struck < queued) failures.push(`the fault struck ${struck} times of the ${queued} queued for single records`);
	if (t.errorItems !== o.unfinished) {
		failures.push(`${t.errorItems} error items, but the fault ended ${o.unfinished} requests: every error item must be one request the fault ended, and no more`);
	}
	const { everyItemSucceeds } = ruleOf(scenario);
	if (everyItemSucceeds) {
		if (t.succeeded !== t.itemsAttempted) failures.push(`${t.itemsAttempted - t.succeeded} items did not succeed although the node gets past every fault here`);
		if (arithmetic && arithmetic.chance !== null && arithmetic.chance >= ACCEPTED_CHANCE) {
			failures.push(`Max Retries does not make a failure improbable enough: ${arithmetic.text}`);
		}
	}
	if (scenario.keyed && everyItemSucceeds && t.unresolvedCreates > 0) {
		failures.push(`${t.unresolvedCreates} creates of keyed records left unresolved: the node must settle them by looking the key up`);
	}
	if (scenario.backOffGrows) {
		// The shortest wait is the back-off itself: a bare 429 also slows the ERP's shared pace (issue 33), whose
		// queue adds to the other waits, more to the many 1st retries late in the run than to the few early 3rd ones.
		const shortest = retries.waitsBeforeRetry.map((w) => w.minMs);
		if (shortest.length < 2 || shortest.some((m, i) => i > 0 && m <= shortest[i - 1])) {
			failures.push(`the shortest waits before the 1st, 2nd… retry do not grow: ${shortest.join(', ')} ms`);
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
	let run: BatchRun;
	let settled: number;
	try {
		if (recordFaults) {
			const ids = before.slice(0, scenario.items).map((c) => c.id);
			queued = await queueRecordFaults(session, recordFaults, ids, scenarioRandom(faultSeed, scenario.id));
		}
		run = await runBatch(session, scenario.id, { ...subject.parameters(scenario.kind, scenario.keyed ?? false), options: scenario.options }, inputs);
	} finally {
		settled = await settle(session, recordFaults?.fault.delayMs ?? 0);
	}
	const after: StoredRecord[] = await session.sandbox.records(subject.records);
	const requests = (await session.sandbox.requests(run.since)).filter((r) => r.seq < settled);

	const t = tally(inputs, run.items, before, after, requests, scenario.keyed, subject);
	const { errorMessages, ...counts } = t;
	const chains = requestChains(requests);
	const isStruck = struckTest(scenario);
	const rule = ruleOf(scenario);
	const observed: Observed = {
		tally: t,
		struck: requests.filter(isStruck).length,
		queued,
		minStruck: strikeMinimum(scenario, queued),
		unfinished: unfinishedRequests(scenario, chains, isStruck),
		retries: retryEvidence(chains, isStruck),
		arithmetic: rule.everyItemSucceeds ? retryArithmetic(scenario, chains) : undefined,
		executionStatus: run.execution.status,
	};
	const { startedAt, stoppedAt } = run.execution;
	const others = scenario.kind === 'create' ? undefined : UNTOUCHED;
	return {
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
		...(observed.arithmetic ? { arithmetic: observed.arithmetic } : {}),
		minStruck: observed.minStruck,
		unfinishedRequests: observed.unfinished,
		...(others ? { otherContacts: others } : {}),
		...counts,
		counted: 'input items',
		faultsStruck: observed.struck,
		retries: observed.retries,
		requestsSent: requests.length,
		executionMs: stoppedAt ? Date.parse(stoppedAt) - Date.parse(startedAt) : -1,
		errorMessages: Object.entries(errorMessages).map(([message, items]) => ({ message, items })).sort((a, b) => b.items - a.items),
		failures: failuresOf(scenario, observed),
	};
}
