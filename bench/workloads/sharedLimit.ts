import { SandboxAdmin } from '../../sandbox/adminClient';
import type { VariantName } from '../../sandbox/variants';
import { atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { N8nClient } from '../../tooling/host/restClient';
import { startStack } from '../../tooling/host/stack';
import type { Credential, Execution } from '../../tooling/host/types';
import { startCluster } from '../../tooling/host/queue/cluster';
import { lastStoppedAfter, perWorker } from '../../tooling/host/queue/executions';
import { chain, splitOutNode, webhookNode } from '../../tooling/host/workflows';
import { IMPORT_NODE, importContactsNode, importWorkflow } from '../../tooling/host/queue/workflows';
import { SHARED_LIMIT } from '../config';
import { contactRows, tally } from '../contacts';
import { windows } from '../sim/sharedLimit';

/** One import of SHARED_LIMIT.runs × SHARED_LIMIT.rowsPerRun creates under the sandbox's limit, as the sandbox saw it. */
export interface SharedLimitFigures {
	/** 429s among the requests to /contacts. */
	refusedShare: number;
	/** From the first webhook call to the last execution stopped, over the creates / the limit's rate. */
	vsMinimum: number;
	/** Items the executions reported as errors (On Error: Continue), plus all items of executions that failed. */
	failed: number;
	/** Contacts written more than once, by e-mail, in the sandbox. */
	duplicates: number;
	missing: number;
	seconds: number;
	requests: number;
	refused: number;
	/** Queue mode: executions per worker. */
	perWorker?: Record<string, number>;
}

/** How the ERP tells its limit: rate-limit headers and Retry-After, only a 429's Retry-After, or a bare 429. */
export type LimitTold = 'withHeaders' | 'retryAfterOnly' | 'withoutHeaders';

/** The set-ups of one side (an older `before` has no retryAfterOnly). */
export type SharedLimitPair = Record<Exclude<LimitTold, 'retryAfterOnly'>, SharedLimitFigures> & { retryAfterOnly?: SharedLimitFigures };

const VARIANTS: Record<LimitTold, VariantName[]> = { withHeaders: [], retryAfterOnly: ['retry-after-only'], withoutHeaders: ['silent-rate-limit'] };

export interface SharedLimitSide {
	oneProcess: SharedLimitPair;
	queueMode: SharedLimitPair;
}

export interface SharedLimitResult {
	date: string;
	n8n: string;
	limit_rps: number;
	runs: number;
	rowsPerRun: number;
	concurrency: number;
	maxRetries: number;
	/** The package at SHARED_LIMIT's before-commit (the code before the one rate controller per ERP). */
	before?: SharedLimitSide & { commit: string };
	after: SharedLimitSide;
}

/** Where the workflows run: n8n's API on main (with an API key), where webhooks are called, the sandbox. */
interface Target {
	n8n: N8nClient;
	webhooks: N8nClient;
	sandbox: SandboxAdmin;
	credential: Credential;
	/** Queue mode: the workflow's Worker node records which worker ran it (it reads the worker's environment). */
	queue: boolean;
}

const OWNER = { email: 'bench@example.com', password: 'Bench-passw0rd', firstName: 'Bench', lastName: 'Mark' };
const SETTINGS = { operation: 'create' as const, concurrency: SHARED_LIMIT.concurrency, maxRetries: SHARED_LIMIT.maxRetries };

const failedOf = (execution: Execution): number =>
	execution.status === 'success' ? nodeOutput(execution, IMPORT_NODE).filter((item) => item.error !== undefined).length : SHARED_LIMIT.rowsPerRun;

/** test/queue's import workflow; in one n8n without its Worker node (n8n there blocks the environment it reads). */
function workflowFor(target: Target, path: string) {
	if (target.queue) return importWorkflow(path, target.credential, SETTINGS);
	return chain(`shared limit ${path}`, [webhookNode(path, 'onReceived'), splitOutNode('body.rows'), importContactsNode(target.credential, SETTINGS)]);
}

/**
 * Four workflows (Webhook answering at once → Split Out → Contact › Create → Worker), each called once with its
 * own 250 rows, all at once: the sandbox limiting to 50 requests a second for its one token, with its quota
 * headers and Retry-After, with only Retry-After on a 429 (retry-after-only), or with none at all (silent-rate-limit:
 * a bare 429).
 */
async function importUnderLimit(target: Target, label: string, told: LimitTold, log: (line: string) => void): Promise<SharedLimitFigures> {
	const { runs, rowsPerRun, rate } = SHARED_LIMIT;
	await target.sandbox.reset();
	await target.sandbox.setVariants(VARIANTS[told]);
	const { tag, rows } = contactRows(`shared-${label}`, runs * rowsPerRun);
	const workflows = await Promise.all(
		Array.from({ length: runs }, (_, i) => target.n8n.createActiveWorkflow(workflowFor(target, `shared-${tag}-${i}`))),
	);
	await target.sandbox.setFaults({ rateLimit: rate });
	const since = await target.sandbox.lastRequestSeq();
	const startedAt = Date.now();
	const answers = await Promise.all(
		workflows.map((_, i) => target.webhooks.callWebhook(`shared-${tag}-${i}`, { rows: rows.slice(i * rowsPerRun, (i + 1) * rowsPerRun) })),
	);
	if (answers.some((answer) => answer.status !== 200)) throw new Error(`a webhook call was refused: ${JSON.stringify(answers)}`);
	const executions = (await Promise.all(workflows.map((w) => waitForExecutions(target.n8n, w.id, atLeast(1), 10 * 60_000)))).flat();
	const requests = (await target.sandbox.requests(since)).filter((request) => request.path.startsWith('/contacts'));
	const refused = requests.filter((request) => request.status === 429).length;
	const held = await tally(target.sandbox, tag, runs * rowsPerRun);
	await target.sandbox.setFaults({ rateLimit: null });
	await target.sandbox.setVariants([]);
	for (const workflow of workflows) await target.n8n.deactivateWorkflow(workflow.id);
	const seconds = lastStoppedAfter(executions, startedAt) / 1000;
	const minimum = (runs * rowsPerRun) / (rate.limit / (rate.windowMs / 1000));
	const figures: SharedLimitFigures = {
		refusedShare: Math.round((refused / requests.length) * 1000) / 1000,
		vsMinimum: Math.round((seconds / minimum) * 100) / 100,
		failed: executions.reduce((total, execution) => total + failedOf(execution), 0),
		duplicates: held.duplicates,
		missing: held.missing,
		seconds,
		requests: requests.length,
		refused,
		...(target.queue && { perWorker: perWorker(executions) }),
	};
	log(`sharedLimit ${label} ${told}: ${JSON.stringify(figures)}`);
	if (process.env.BENCH_WINDOWS) log(windows(requests.map((r) => ({ at: Date.parse(r.at), refused: r.status === 429, who: '?' })), startedAt));
	return figures;
}

async function pair(target: Target, label: string, log: (line: string) => void): Promise<SharedLimitPair> {
	return {
		withHeaders: await importUnderLimit(target, label, 'withHeaders', log),
		retryAfterOnly: await importUnderLimit(target, label, 'retryAfterOnly', log),
		withoutHeaders: await importUnderLimit(target, label, 'withoutHeaders', log),
	};
}

/** One n8n (the bench's stack of its own), then queue mode (test/queue's cluster), with the package being packed now. */
async function side(label: string, log: (line: string) => void): Promise<SharedLimitSide & { n8n: string }> {
	const stack = await startStack({ owner: OWNER, sandbox: { rateLimit: null, overdueSweepMs: 0 }, log });
	const version = stack.install.version;
	let oneProcess: SharedLimitPair;
	try {
		const n8n = new N8nClient(stack.n8n.baseUrl);
		await n8n.signIn(OWNER);
		await n8n.createApiKey(`bench ${label}`);
		oneProcess = await pair({ n8n, webhooks: n8n, sandbox: new SandboxAdmin(stack.sandbox.url), credential: stack.credential, queue: false }, `${label}-one`, log);
	} finally {
		await stack.stop();
	}
	const cluster = await startCluster({
		owner: OWNER,
		sandbox: { rateLimit: null, overdueSweepMs: 0 },
		lock: { durationMs: 15_000, renewMs: 5000, stalledIntervalMs: 5000 },
		log,
	});
	try {
		const webhook = cluster.processes.find((p) => p.spec.name === 'webhook');
		if (!webhook) throw new Error('the cluster has no webhook processor');
		const target = { n8n: cluster.client, webhooks: new N8nClient(webhook.baseUrl), sandbox: new SandboxAdmin(cluster.sandbox.url), credential: cluster.credential, queue: true };
		return { n8n: version, oneProcess, queueMode: await pair(target, `${label}-queue`, log) };
	} finally {
		await cluster.stop();
	}
}

/**
 * Many runs against one ERP limit. The "before" side packs the checkout BENCH_BEFORE_DIR names (a
 * worktree of SHARED_LIMIT.beforeCommit with node_modules linked); without it the before figures are kept.
 */
export async function sharedLimit(log: (line: string) => void, kept?: SharedLimitResult['before']): Promise<SharedLimitResult> {
	const beforeDir = process.env.BENCH_BEFORE_DIR;
	let before = kept;
	if (beforeDir) {
		process.env.N8N_ERP_PACK_FROM = beforeDir;
		try {
			const { oneProcess, queueMode } = await side('before', log);
			before = { commit: SHARED_LIMIT.beforeCommit, oneProcess, queueMode };
		} finally {
			delete process.env.N8N_ERP_PACK_FROM;
		}
	}
	const { n8n, ...after } = await side('after', log);
	const { runs, rowsPerRun, rate, concurrency, maxRetries } = SHARED_LIMIT;
	const limit_rps = rate.limit / (rate.windowMs / 1000);
	return { date: new Date().toISOString(), n8n, limit_rps, runs, rowsPerRun, concurrency, maxRetries, ...(before && { before }), after };
}
