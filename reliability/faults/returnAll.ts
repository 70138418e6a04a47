import { sleep } from '../../e2e/host/processGroup';
import { waitFor } from '../../sandbox/adminClient';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import { runBatch } from '../support/batch';
import { looksLikeCrash } from '../support/crash';
import { pairedIndex } from '../support/executions';
import type { ReliabilitySession } from '../support/session';
import type { FaultScenarioResult } from '../report/results';

export interface RestartScenario {
	id: string;
	title: string;
	contacts: number;
	/** The sandbox restarts once it has served this page of the walk. */
	atPage: number;
	downMs: number;
	/** The node's Max Retries option; undefined: its default. */
	maxRetries?: number;
}

export const RESTART_SCENARIOS: RestartScenario[] = [
	{
		id: 'restart-during-return-all',
		title: 'The ERP restarts (down 3 s) in the middle of Get Many, Return All over 20,000 contacts',
		contacts: 20_000,
		atPage: 80,
		downMs: 3000,
	},
	{
		id: 'outage-during-return-all',
		title: 'The ERP goes down for 20 s in the middle of Get Many, Return All over 20,000 contacts, Max Retries 2',
		contacts: 20_000,
		atPage: 80,
		downMs: 20_000,
		maxRetries: 2,
	},
];

const pageRequests = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === 'GET' && r.path === '/contacts');

/**
 * Waits until the node has read `page`, then restarts the sandbox and waits until it is back. Returns when
 * the sandbox was first seen down (ms since the epoch).
 */
async function restartAtPage(session: ReliabilitySession, since: number, scenario: RestartScenario): Promise<number> {
	while (!pageRequests(await session.sandbox.requests(since)).some((r) => Number(r.query.page) >= scenario.atPage)) await sleep(20);
	await session.sandbox.restart(scenario.downMs);
	await waitFor(() => session.sandbox.health().then(() => false, () => true));
	const downAt = Date.now();
	await session.sandbox.waitUntilUp(scenario.downMs + 10_000);
	return downAt;
}

/**
 * A restart while Get Many (Return All) walks the pages. The node must either return every record exactly
 * once, or fail with one clear error item and no partial list; the sandbox's records are the reference.
 */
export async function runRestartScenario(session: ReliabilitySession, scenario: RestartScenario): Promise<FaultScenarioResult> {
	await session.sandbox.reset();
	await session.sandbox.seed({ contacts: scenario.contacts });
	const stored = await session.sandbox.records('contacts');
	const options = scenario.maxRetries === undefined ? {} : { maxRetries: scenario.maxRetries };
	let downAt = 0;
	const run = await runBatch(session, scenario.id, { resource: 'contact', operation: 'getAll', returnAll: true, options }, [{}], async (since) => {
		downAt = await restartAtPage(session, since, scenario);
	});

	const requests = await session.sandbox.requests(run.since);
	const unchanged = new Map((await session.sandbox.records('contacts')).map((c) => [c.id, JSON.stringify(c)]));
	const collateral = stored.filter((c) => unchanged.get(c.id) !== JSON.stringify(c)).length;
	const pages = pageRequests(requests);
	const before = pages.filter((r) => Date.parse(r.at) < downAt);
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

	const failures: string[] = [];
	if (run.execution.status !== 'success') failures.push(`the execution ended "${run.execution.status}", not "success"`);
	if (!complete && !failedClearly) {
		failures.push(
			`neither every record once nor one clear error: ${ids.length} records (${returned.size} distinct, ${wrong} not as in the ERP) of ${stored.length}, ${errors.length} error items`,
		);
	}
	// Struck in the middle: pages were read before it, and the walk went on after it or failed on it.
	const struck = before.length > 0 && (after.length > 0 || errors.length > 0);
	if (!struck) failures.push('the restart did not strike in the middle of the walk');
	if (collateral > 0) failures.push(`${collateral} records changed or disappeared during a read`);
	// A clear failure returns no records and says so: nothing it returned is missing.
	const lost = failedClearly ? 0 : stored.filter((c) => !intact.has(c.id)).length;
	const { startedAt, stoppedAt } = run.execution;
	// A walk that returns records is counted by record; one that fails clearly by its one input item, so that
	// succeeded + error items always add up to the items attempted.
	const counted = failedClearly ? 'input items' : 'records';
	return {
		id: scenario.id,
		title: scenario.title,
		setup:
			`1 input item, ERP node Get Many contacts with Return All over ${scenario.contacts} contacts (${scenario.contacts / 100} pages), the sandbox restarting after page ${scenario.atPage}; ` +
			(failedClearly
				? 'it failed with one error item, so the item counted is the input item'
				: `its output is one item per contact, so the items counted are the ${scenario.contacts} contacts`),
		settings: { restart: { afterPage: scenario.atPage, downMs: scenario.downMs }, nodeOptions: options },
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
		resent: 0,
		faultsStruck: struck ? 1 : 0,
		requestsSent: requests.length,
		executionMs: stoppedAt ? Date.parse(stoppedAt) - Date.parse(startedAt) : -1,
		outcome: complete ? 'complete' : failedClearly ? 'failed clearly' : undefined,
		records: { inErp: stored.length, returned: ids.length },
		evidence: {
			pagesServedBeforeRestart: before.length,
			lastPageBeforeRestart: Number(before.at(-1)?.query.page),
			pagesServedAfterRestart: after.length,
			firstPageAfterRestart: after.length ? Number(after[0].query.page) : null,
			msBetweenLastPageBeforeAndFirstAfter: after.length && before.length ? Date.parse(after[0].at) - Date.parse(before[before.length - 1].at) : null,
		},
		errorMessages: errors.map((item) => ({ message: `${String(item.json.error)} — ${String(item.json.description)}`, items: 1 })),
		failures,
	};
}
