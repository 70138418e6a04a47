import { sleep } from '../../../tooling/host/processes';
import { waitFor } from '../../../sandbox/adminClient';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { runBatch } from '../support/batch';
import { looksLikeCrash } from '../support/crash';
import { pairedIndex } from '../../../tooling/host/executions';
import type { ReliabilitySession } from '../setup/context';
import type { FaultScenarioResult } from '../report/results';

export interface RestartScenario {
	id: string;
	contacts: number;
	/** The sandbox holds the request for the page after this one, and restarts while it holds it. */
	atPage: number;
	downMs: number;
	/** The node's Max Retries option. */
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

const titleOf = (s: RestartScenario) =>
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
	const { startedAt, stoppedAt } = run.execution;
	// A walk that returns records is counted by record; one that fails clearly by its one input item, so that
	// succeeded + error items always add up to the items attempted.
	const counted = failedClearly ? 'input items' : 'records';
	return {
		id: scenario.id,
		title: titleOf(scenario),
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
		executionMs: stoppedAt ? Date.parse(stoppedAt) - Date.parse(startedAt) : -1,
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
		errorMessages: errors.map((item) => ({ message: `${String(item.json.error)} — ${String(item.json.description)}`, items: 1 })),
		failures,
	};
}
