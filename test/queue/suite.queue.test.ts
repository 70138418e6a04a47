/**
 * The package in n8n queue mode, against the sandbox ERP's own state and request log. The scenarios run in this
 * order on one cluster: workers are killed and main stopped on the way. Writes test/queue/results.json and
 * docs/queue-mode.md when every scenario has passed; otherwise the figures it has, failed scenarios' included, go to
 * test/queue/results.partial.json and the failed ones' to the log.
 */
import { describeMachine, loadAvg1 } from '../../bench/machine';
import { isPartialRun, writeResults } from '../../tooling/host/results';
import { queueReport, singleProcessFigures, type QueueResults } from './report/markdown';
import { IMPORT_PLAN, killWorkerDuringImport, RATE_LIMITED_PLAN, RERUNNABLE_PLAN, runImport, type ImportFigures, type ImportPlan } from './scenarios/import';
import { ERP_POLLING_TRIGGER_NAME } from '../../tooling/host/workflows';
import { bothTriggersInTheCluster, confirmationInTheCluster, deliveryBurst, eventsWhileMainDown, POLL, pollingInTheCluster, sixEvents, type TriggerFigures } from './scenarios/triggers';
import { connect, type QueueSession } from './support/session';

const WORKERS = ['worker-1', 'worker-2'];
const BURST = { total: 200, batch: 20 };
const CONFIRMED = 10;
const MAIN_DOWN_CONTACTS = 20;

const expectBothWorkers = (perWorker: Record<string, number>) => expect(Object.keys(perWorker).sort()).toEqual(WORKERS);

/** `count` deliveries, each answered at the first attempt and starting one successful execution on a worker. */
const expectOneExecutionPerDelivery = (figures: TriggerFigures, count: number) =>
	expect(figures).toMatchObject({ deliveries: count, retriedDeliveries: 0, executions: count, succeeded: count, lost: 0, twice: 0, workerMismatches: 0 });

/** Every execution succeeded, both workers ran some, no item failed, the ERP holds every contact exactly once. */
function expectCompleteImport(figures: ImportFigures, plan: ImportPlan): void {
	const contacts = plan.executions * plan.rowsPerExecution;
	expect(figures).toMatchObject({ executions: plan.executions, succeeded: plan.executions, failedItems: 0, erp: { records: contacts, missing: 0, duplicates: 0 } });
	expectBothWorkers(figures.perWorker);
}

const SCENARIOS = ['sixEvents', 'burst', 'confirmation', 'bothTriggers', 'import', 'rateLimited', 'workerDeath', 'mainDown', 'polling'] as const;
type Scenario = (typeof SCENARIOS)[number];

let session: QueueSession;
/** Each scenario's figures, kept as soon as it has them (before its checks); `passed`: those whose checks all held. */
const results: Partial<QueueResults> = { partsMs: {} };
const passed = new Set<Scenario>();
const suiteStarted = Date.now();

/** Runs a scenario, records its wall time and keeps its figures, then makes its checks. */
async function scenario<K extends Scenario>(name: K, work: () => Promise<QueueResults[K]>, check: (figures: QueueResults[K]) => void): Promise<void> {
	const started = Date.now();
	const figures = await work().finally(() => (results.partsMs![name] = Date.now() - started));
	results[name] = figures;
	check(figures);
	passed.add(name);
}

beforeAll(async () => {
	session = await connect();
	results.machine = describeMachine(session.ctx.processes[0].spec.cluster.install.nodeBin);
});

afterAll(() => {
	if (!results.machine) return;
	results.machine.loadAvg.end = loadAvg1();
	results.partsMs!.suite = Date.now() - suiteStarted;
	const run = {
		...(results as QueueResults),
		date: new Date().toISOString(),
		n8n: session.ctx.n8nVersion,
		cluster: { ...session.ctx.timings, lock: session.ctx.processes[0].spec.cluster.lock },
		erpWebhooks: { timeoutMs: session.ctx.webhookTimeoutMs, retryDelaysMs: session.ctx.webhookRetryDelaysMs },
		singleProcess: singleProcessFigures(),
	};
	const complete = SCENARIOS.every((name) => passed.has(name));
	writeResults(queueReport, run, !complete || isPartialRun());
	if (complete) return;
	const log = (line: string) => process.stderr.write(`[queue] ${line}\n`);
	log(`not every scenario ran and passed: this run's figures are in ${queueReport.partialJson}`);
	for (const name of SCENARIOS) if (results[name] && !passed.has(name)) log(`${name} failed with these figures: ${JSON.stringify(results[name])}`);
});

describe('ERP Trigger behind the webhook processor', () => {
	test('each of the six events starts exactly one execution, run on a worker that the execution records', () =>
		scenario('sixEvents', () => sixEvents(session), (figures) => expectOneExecutionPerDelivery(figures, 6)));

	test(`${BURST.total} deliveries, ${BURST.batch} at a time: ${BURST.total} executions, none lost, none twice, both workers`, () =>
		scenario('burst', () => deliveryBurst(session, BURST.total, BURST.batch), (figures) => {
			expectOneExecutionPerDelivery(figures, BURST.total);
			expectBothWorkers(figures.perWorker);
		}));

	test(`version 2, Confirm With the ERP: ${CONFIRMED} real contact.created confirmed by the webhook processor, ${CONFIRMED} forged ones refused; each answered 2xx in the end, confirmed once`, () =>
		scenario('confirmation', () => confirmationInTheCluster(session, CONFIRMED), (figures) => {
			expect(figures).toMatchObject({ real: CONFIRMED, forged: CONFIRMED, delivered: 2 * CONFIRMED, realConfirmed: CONFIRMED, forgedConfirmed: 0, forgedNotConfirmed: { contradicted: CONFIRMED } });
			// An attempt answered 503 (the ERP failed the read-back, or it ran past its deadline) started its execution
			// too, as could not confirm, with its reason: one execution per attempt answered.
			const answered = Object.entries(figures.answers).reduce((n, [status, count]) => n + (status === 'none' ? 0 : count), 0);
			expect(figures.executions).toBe(answered);
			expect(figures.succeeded).toBe(figures.executions);
			expect(figures.couldNotConfirm).toBe(figures.answers['503'] ?? 0);
			// Every delivery was read back from the ERP: at least one read of each contact named.
			expect(figures.readBacks).toBeGreaterThanOrEqual(2 * CONFIRMED);
			expect(Object.keys(figures.perWorker).every((worker) => WORKERS.includes(worker))).toBe(true);
		}));
});

test("both triggers in one workflow, into Remove Duplicates on eventKey (its history in PostgreSQL): one payment confirmed by the webhook processor, its delivery replayed with a new timestamp and id, and reported by main's poll: the goods ship once", () =>
	scenario('bothTriggers', () => bothTriggersInTheCluster(session), (figures) => {
		expect(figures).toMatchObject({ delivery: [200], replay: 200, byWebhook: 2, byPoll: 1, sameKey: true });
		expect(figures.shipped).toEqual(['ERP Trigger']);
	}));

describe('an import spread over the workers', () => {
	test('2,000 contacts in 20 executions of 100 at once: every contact exactly once, both workers used', () =>
		scenario('import', async () => (await runImport(session, IMPORT_PLAN)).figures, (figures) => expectCompleteImport(figures, IMPORT_PLAN)));

	test("the same under the ERP's rate limit, which all workers share: 0 failed items, 0 duplicates", () =>
		scenario('rateLimited', async () => (await runImport(session, RATE_LIMITED_PLAN)).figures, (figures) => {
			expectCompleteImport(figures, RATE_LIMITED_PLAN);
			// The limit did bind: the ERP refused requests, and the import took at least the limit's minimum.
			expect(figures.refused429).toBeGreaterThan(0);
			expect(figures.seconds).toBeGreaterThanOrEqual((figures.minimumSeconds ?? 0) * 0.95);
			// More executions ran side by side than one worker takes (10): both workers worked at the same time.
			expect(figures.atOnce).toBeGreaterThan(10);
		}));
});

test('a worker killed (SIGKILL) in the middle of an import with Create or Update: n8n fails its executions and drops their input, the other worker carries on, and sending the rows again writes nothing twice', () =>
	scenario('workerDeath', () => killWorkerDuringImport(session, RERUNNABLE_PLAN, 'worker-1', 600), (figures) => {
		const { killed, resend } = figures;
		expect(killed.length).toBeGreaterThan(0);
		expect(figures.killedChunks).toHaveLength(killed.length);
		for (const execution of killed) {
			// n8n gives the stalled job up, marks the execution failed and keeps none of its data: not even its input.
			expect(execution).toMatchObject({ status: 'error', message: expect.stringMatching(/failed to be processed too many times/), nodesKept: 0 });
		}
		// Nothing written twice so far, and the other worker finished every execution it had.
		expect(figures).toMatchObject({ import: { erp: { duplicates: 0 }, failedItems: 0 }, survivor: { succeeded: figures.survivor.executions } });
		expect(figures.survivor.executions).toBeGreaterThan(0);
		// Retry in n8n has nothing to run: each retry fails at once and the ERP receives nothing.
		expect(figures.retry).toEqual({ executions: killed.length, statuses: { error: killed.length }, erpRequests: 0 });
		// Sending the killed executions' rows again (on the surviving worker) completes the import: the contacts the
		// dead executions had written are updated, the others created, none twice.
		const rows = figures.killedChunks.reduce((total, chunk) => total + chunk.rows, 0);
		expect(resend).toMatchObject({ executions: killed.length, succeeded: killed.length, perWorker: { [figures.survivor.name]: killed.length }, erp: { records: 2000, missing: 0, duplicates: 0 } });
		expect({ updated: 0, created: 0, ...resend.outcomes }).toEqual({ updated: resend.writtenBeforeDeath, created: rows - resend.writtenBeforeDeath });
	}));

test('main down: the webhook processor still takes deliveries and the workers still run them', () =>
	scenario('mainDown', () => eventsWhileMainDown(session, MAIN_DOWN_CONTACTS), (figures) => {
		const n = MAIN_DOWN_CONTACTS;
		expect(figures).toMatchObject({ contactsCreated: n, deliveries: n, acceptedFirstTime: n, lookUps: n, lookUpsWhileDown: n, executions: n, succeeded: n, ranWhileDown: n });
		expectBothWorkers(figures.perWorker);
	}));

test('ERP Polling Trigger: publishing starts one execution with no items, on a worker; polls run on main only, their executions on workers; every contact reported once across a worker killed and main stopped', () =>
	scenario('polling', () => pollingInTheCluster(session, 'worker-2'), (figures) => {
		const created = figures.contactsCreated;
		expect(created).toBe(50);
		// Every contact created through the ERP's API reported exactly once, nothing else reported; each looked up by
		// its execution exactly once (the ERP's own request log).
		expect(figures).toMatchObject({ reports: created, lost: 0, twice: 0, unexpected: 0, lookedUpOnce: created, lookedUpTwice: 0 });
		// Publishing: main's activation poll reported nothing and started one execution with no items (so that n8n keeps
		// the baseline). Main queued it and a worker ran it, where nothing ran after the trigger: no node records a worker.
		expect(figures.publish).toEqual({ executions: 1, succeeded: 1, items: 0, nodesRun: [ERP_POLLING_TRIGGER_NAME], queuedBy: ['main'], ranOn: [expect.stringMatching(/^worker-[12]$/)] });
		// After it, executions only for the steps' contacts: each step's started at least one, none reported nothing.
		expect(figures.steps.filter((s) => s.executions === 0).map((s) => s.label)).toEqual([]);
		const stepExecutions = figures.steps.reduce((total, s) => total + s.executions, 0);
		// Each ran on a worker (its own record and the workers' logs agree), every job queued by main, by none else.
		expect(figures).toMatchObject({ executions: figures.publish.executions + stepExecutions, succeeded: figures.executions, emptyAfterPublish: 0, workerMismatches: 0 });
		expect(figures.enqueuedBy).toEqual({ main: figures.executions });
		// With worker-2 dead, the poll's execution went to worker-1.
		expect(Object.keys(figures.steps[1].perWorker)).toEqual(['worker-1']);
		// Polls: every list scan the ERP received is one of main's logged polls; with main stopped through a whole
		// poll interval (workers and webhook processor up), the ERP received none.
		expect(figures).toMatchObject({ scans: figures.mainPolls, scansWhileMainDown: 0, events: ['contact.created'] });
		expect(figures.mainDownMs).toBeGreaterThan(POLL.intervalMs);
		expect(figures.scansAfterLast).toBeGreaterThan(0);
	}));
