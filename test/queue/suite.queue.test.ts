/**
 * The package in n8n queue mode (issues 16 and 22), against the sandbox ERP's own state and request log. The
 * scenarios run in this order on one cluster: workers are killed and main stopped on the way. Writes test/queue/results.json
 * and docs/queue-mode.md when every scenario has run.
 */
import { describeMachine, loadAvg1 } from '../../bench/machine';
import { EVENT_NAMES } from '../../sandbox/events';
import { writeResults } from '../host/results';
import { queueReport } from './report/markdown';
import { singleProcessFigures, type QueueResults } from './report/results';
import { IMPORT_PLAN, RATE_LIMITED_PLAN, RERUNNABLE_PLAN } from './scenarios/plans';
import { finishImport, startImport } from './scenarios/import';
import { eventsWhileMainDown } from './scenarios/mainDown';
import { pollingInTheCluster } from './scenarios/polling';
import { deliveryBurst, sixEvents, triggerFigures, triggerItem } from './scenarios/trigger';
import { killWorkerDuringImport } from './scenarios/workerDies';
import { recordedWorker } from './support/executions';
import { expectCompleteImport, expectOneExecutionPerDelivery, WORKERS } from './support/expectations';
import { connect, type QueueSession } from './support/session';

const BURST = { total: 200, batch: 20 };

let session: QueueSession;
const results: Partial<QueueResults> = { partsMs: {} };
const suiteStarted = Date.now();

/** Runs one part of the suite and records its wall time. */
async function part<T>(name: string, work: () => Promise<T>): Promise<T> {
	const started = Date.now();
	try {
		return await work();
	} finally {
		results.partsMs![name] = Date.now() - started;
	}
}

beforeAll(async () => {
	session = await connect();
	results.machine = describeMachine(session.ctx.processes[0].spec.cluster.install.nodeBin);
});

afterAll(() => {
	const complete = ['sixEvents', 'burst', 'import', 'rateLimited', 'workerDeath', 'mainDown', 'polling'].every((key) => key in results);
	if (!complete || !results.machine) return;
	results.machine.loadAvg.end = loadAvg1();
	results.partsMs!.suite = Date.now() - suiteStarted;
	writeResults(queueReport, {
		...(results as QueueResults),
		date: new Date().toISOString(),
		n8n: session.ctx.n8nVersion,
		cluster: { ...session.ctx.timings, lock: session.ctx.processes[0].spec.cluster.lock },
		erpWebhooks: { timeoutMs: session.ctx.webhookTimeoutMs, retryDelaysMs: session.ctx.webhookRetryDelaysMs },
		singleProcess: singleProcessFigures(),
	});
});

describe('ERP Trigger behind the webhook processor', () => {
	test('each of the six events starts exactly one execution, run on a worker that the execution records', async () => {
		const run = await part('sixEvents', () => sixEvents(session));
		const figures = triggerFigures(run, [...EVENT_NAMES], (e) => String(triggerItem(e).event));
		expectOneExecutionPerDelivery(figures, 6);
		results.sixEvents = { ...figures, workers: Object.fromEntries(run.executions.map((e) => [String(triggerItem(e).event), recordedWorker(e) ?? ''])) };
	});

	test(`${BURST.total} deliveries, ${BURST.batch} at a time: ${BURST.total} executions, none lost, none twice, both workers`, async () => {
		const run = await part('burst', () => deliveryBurst(session, BURST.total, BURST.batch));
		const markers = Array.from({ length: BURST.total }, (_, i) => String(i));
		const figures = triggerFigures(run, markers, (e) => String((triggerItem(e).data as { marker?: number }).marker));
		expectOneExecutionPerDelivery(figures, BURST.total);
		expect(Object.keys(figures.perWorker).sort()).toEqual(WORKERS);
		results.burst = { ...figures, batch: BURST.batch };
	});
});

describe('an import spread over the workers', () => {
	test('2,000 contacts in 20 executions of 100 at once: every contact exactly once, both workers used', async () => {
		const { figures } = await part('import', async () => await finishImport(session, await startImport(session, IMPORT_PLAN)));
		expectCompleteImport(figures, IMPORT_PLAN);
		expect(Object.keys(figures.perWorker).sort()).toEqual(WORKERS);
		results.import = figures;
	});

	test("the same under the ERP's rate limit, which all workers share: 0 failed items, 0 duplicates", async () => {
		const { figures } = await part('rateLimited', async () => await finishImport(session, await startImport(session, RATE_LIMITED_PLAN)));
		expectCompleteImport(figures, RATE_LIMITED_PLAN);
		expect(Object.keys(figures.perWorker).sort()).toEqual(WORKERS);
		// The limit did bind: the ERP refused requests, and the import took at least the limit's minimum.
		expect(figures.refused429).toBeGreaterThan(0);
		expect(figures.seconds).toBeGreaterThanOrEqual((figures.minimumSeconds ?? 0) * 0.95);
		// More executions ran side by side than one worker takes (10): both workers worked at the same time.
		expect(figures.atOnce).toBeGreaterThan(10);
		results.rateLimited = figures;
	});
});

describe('a worker killed (SIGKILL) in the middle of an import with Create or Update', () => {
	test('n8n fails its executions and drops their input, the other worker carries on, and sending the rows again writes nothing twice', async () => {
		const figures = await part('workerDeath', () => killWorkerDuringImport(session, RERUNNABLE_PLAN, 'worker-1', 600));
		expect(figures.killed.length).toBeGreaterThan(0);
		expect(figures.killedChunks).toHaveLength(figures.killed.length);
		for (const killed of figures.killed) {
			// n8n gives the stalled job up, marks the execution failed and keeps none of its data: not even its input.
			expect(killed).toMatchObject({ status: 'error', message: expect.stringMatching(/failed to be processed too many times/), nodesKept: 0 });
		}
		// Nothing written twice so far, and the other worker finished every execution it had.
		expect(figures.import.erp.duplicates).toBe(0);
		expect(figures.import.failedItems).toBe(0);
		expect(figures.survivor.executions).toBeGreaterThan(0);
		expect(figures.survivor.succeeded).toBe(figures.survivor.executions);
		// Retry in n8n has nothing to run: each retry fails at once and the ERP receives nothing.
		expect(figures.retry).toEqual({ executions: figures.killed.length, statuses: { error: figures.killed.length }, erpRequests: 0 });
		// Sending the killed executions' rows again (on the surviving worker) completes the import: the contacts the
		// dead executions had written are updated, the others created, none twice.
		const { resend } = figures;
		const rows = figures.killedChunks.reduce((total, chunk) => total + chunk.rows, 0);
		expect(resend).toMatchObject({
			executions: figures.killed.length,
			succeeded: figures.killed.length,
			perWorker: { [figures.survivor.name]: figures.killed.length },
			erp: { records: 2000, missing: 0, duplicates: 0 },
		});
		expect({ updated: 0, created: 0, ...resend.outcomes }).toEqual({ updated: resend.writtenBeforeDeath, created: rows - resend.writtenBeforeDeath });
		results.workerDeath = figures;
	});
});

describe('main down', () => {
	test('the webhook processor still takes deliveries and the workers still run them', async () => {
		const figures = await part('mainDown', () => eventsWhileMainDown(session, 20));
		expect(figures).toMatchObject({
			contactsCreated: 20,
			deliveries: 20,
			acceptedFirstTime: 20,
			lookUps: 20,
			lookUpsWhileDown: 20,
			executions: 20,
			succeeded: 20,
			ranWhileDown: 20,
		});
		expect(Object.keys(figures.perWorker).sort()).toEqual(WORKERS);
		results.mainDown = figures;
	});
});

describe('ERP Polling Trigger', () => {
	test('polls run on main only, their executions on workers; every contact reported once across a worker killed and main stopped', async () => {
		const figures = await part('polling', () => pollingInTheCluster(session, 'worker-2'));
		const created = figures.contactsCreated;
		expect(created).toBe(50);
		// Every contact created through the ERP's API reported exactly once, nothing else reported; each looked up by
		// its execution exactly once (the ERP's own request log).
		expect(figures).toMatchObject({ reports: created, lost: 0, twice: 0, unexpected: 0, lookedUpOnce: created, lookedUpTwice: 0 });
		// Executions: each step's contacts started at least one; none outside the steps (not even an empty one).
		expect(figures.steps.map((s) => s.executions).every((n) => n >= 1)).toBe(true);
		expect(figures.executions).toBe(figures.steps.reduce((total, s) => total + s.executions, 0));
		expect(figures.succeeded).toBe(figures.executions);
		// Each ran on a worker (its own record and the workers' logs agree), its job queued by main, by none else.
		expect(figures.workerMismatches).toBe(0);
		expect(figures.enqueuedBy).toEqual({ main: figures.executions });
		// With worker-2 dead, the poll's execution went to worker-1.
		expect(Object.keys(figures.steps[1].perWorker)).toEqual(['worker-1']);
		// Polls: every list scan the ERP received is one of main's logged polls; with main stopped through a whole
		// poll interval (workers and webhook processor up), the ERP received none.
		expect(figures.scans).toBe(figures.mainPolls);
		expect(figures.mainDownMs).toBeGreaterThan(60_000);
		expect(figures.scansWhileMainDown).toBe(0);
		expect(figures.scansAfterLast).toBeGreaterThan(0);
		expect(figures.events).toEqual(['contact.created']);
		results.polling = figures;
	});
});
