import { contactRows, type Tally } from '../../../bench/contacts';
import type { ContactRow } from '../../../bench/rawTasks';
import { atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import type { Execution } from '../../../tooling/host/types';
import type { RateLimitConfig } from '../../../sandbox/rateLimit';
import { lastStoppedAfter, mostAtOnce, perWorker } from '../../../tooling/host/queue/executions';
import type { QueueSession } from '../support/session';
import { IMPORT_NODE, type ImportSettings, importWorkflow } from '../../../tooling/host/queue/workflows';

export interface ImportPlan {
	label: string;
	executions: number;
	rowsPerExecution: number;
	settings: ImportSettings;
	/** The ERP's limit during the import (shared by every worker: one token); null: none. */
	rateLimit: RateLimitConfig | null;
}

export interface StartedImport {
	plan: ImportPlan;
	workflowId: string;
	/** The webhook path: POST /webhook/<path> with `{rows}` starts one execution. */
	path: string;
	tag: string;
	/** The rows of each execution (webhook call), in call order. */
	chunks: ContactRow[][];
	/** The sandbox's last request before the import. */
	since: number;
	startedAt: number;
}

/** One call of the import webhook per chunk, all at once, on the webhook processor. */
export async function sendChunks(session: QueueSession, path: string, chunks: ContactRow[][]): Promise<void> {
	const answers = await Promise.all(chunks.map((chunk) => session.webhooks.callWebhook(path, { rows: chunk })));
	const refused = answers.filter((answer) => answer.status !== 200);
	if (refused.length) throw new Error(`the webhook processor refused ${refused.length} import calls: ${JSON.stringify(refused[0])}`);
}

/** The rows an execution of the import received: its Webhook node's output, saved before it was queued. */
export const rowsOf = (execution: Execution): ContactRow[] =>
	(nodeOutput(execution, 'Webhook')[0]?.body as { rows?: ContactRow[] } | undefined)?.rows ?? [];

/**
 * Saves and activates the import workflow, sets the ERP's rate limit, then calls its webhook on the webhook
 * processor once per chunk, all at once: each call is one execution, queued in Redis for the workers.
 */
export async function startImport(session: QueueSession, plan: ImportPlan): Promise<StartedImport> {
	const { tag, rows } = contactRows(plan.label, plan.executions * plan.rowsPerExecution);
	const chunks = Array.from({ length: plan.executions }, (_, i) => rows.slice(i * plan.rowsPerExecution, (i + 1) * plan.rowsPerExecution));
	const path = `queue-import-${tag}`;
	const workflow = await session.n8n.createActiveWorkflow(importWorkflow(path, session.ctx.credential, plan.settings));
	await session.sandbox.setFaults({ rateLimit: plan.rateLimit });
	const since = await session.sandbox.lastRequestSeq();
	const startedAt = Date.now();
	await sendChunks(session, path, chunks);
	return { plan, workflowId: workflow.id, path, tag, chunks, since, startedAt };
}

/** The contacts of these rows that the ERP holds, per e-mail (0: missing, 2: written twice). */
export async function erpCopies(session: QueueSession, tag: string): Promise<Map<string, number>> {
	const copies = new Map<string, number>();
	for (const contact of await session.sandbox.records('contacts')) {
		if (contact.email?.startsWith(`${tag}-`)) copies.set(contact.email, (copies.get(contact.email) ?? 0) + 1);
	}
	return copies;
}

/** What the ERP holds of some rows: the sandbox's own state, not what the workflow reported. */
export function tallyRows(copies: Map<string, number>, rows: ContactRow[]): Tally {
	let records = 0;
	let missing = 0;
	let duplicates = 0;
	for (const row of rows) {
		const n = copies.get(row.email) ?? 0;
		records += n;
		if (n === 0) missing++;
		if (n > 1) duplicates += n - 1;
	}
	return { records, missing, duplicates };
}

/** Output items of the import node that are errors (On Error: Continue turns a failed item into one). */
export const failedItems = (executions: Execution[]) =>
	executions.reduce((total, e) => total + nodeOutput(e, IMPORT_NODE).filter((item) => item.error !== undefined).length, 0);

/** Create or Update's outcome per output item (`action`: created or updated), counted over the executions. */
export function outcomes(executions: Execution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const item of executions.flatMap((e) => nodeOutput(e, IMPORT_NODE))) {
		const action = String(item.action ?? (item.error === undefined ? 'no action' : 'error'));
		counts[action] = (counts[action] ?? 0) + 1;
	}
	return counts;
}

/** Waits for every execution of a started import and counts the result in the ERP and in n8n. */
export async function finishImport(session: QueueSession, started: StartedImport) {
	const { plan } = started;
	const executions = await waitForExecutions(session.n8n, started.workflowId, atLeast(plan.executions), 10 * 60_000);
	const requests = (await session.sandbox.requests(started.since)).filter((r) => r.path.startsWith('/contacts'));
	const refused429 = requests.filter((r) => r.status === 429).length;
	const contacts = plan.executions * plan.rowsPerExecution;
	// seconds: from the first webhook call to the last execution stopped; minimumSeconds: the requests the ERP answered
	// (all but its 429s) over the limit's rate, which no client can beat.
	const figures = {
		contacts,
		executions: executions.length,
		succeeded: executions.filter((e) => e.status === 'success').length,
		perWorker: perWorker(executions),
		atOnce: mostAtOnce(executions),
		failedItems: failedItems(executions),
		erp: tallyRows(await erpCopies(session, started.tag), started.chunks.flat()),
		requests: requests.length,
		refused429,
		seconds: lastStoppedAfter(executions, started.startedAt) / 1000,
		rateLimit: plan.rateLimit,
		minimumSeconds: plan.rateLimit ? ((requests.length - refused429) / plan.rateLimit.limit) * (plan.rateLimit.windowMs / 1000) : null,
		settings: plan.settings,
	};
	await session.sandbox.setFaults({ rateLimit: null });
	return { figures, executions };
}

export type ImportFigures = Awaited<ReturnType<typeof finishImport>>['figures'];

/**
 * 2,000 contacts as 20 webhook calls of 100 rows, all at once: 20 executions, at most 10 at a time per worker
 * (n8n's default worker concurrency), each creating its 100 contacts (Contact › Create, as the benchmark's one
 * process does) with the node's Concurrency 5.
 */
export const IMPORT_PLAN: ImportPlan = {
	label: 'queue-import',
	executions: 20,
	rowsPerExecution: 100,
	settings: { operation: 'create', concurrency: 5, maxRetries: 5 },
	rateLimit: null,
};

/**
 * The same against an ERP that allows 100 requests per second to the token all workers share: 20 s at the least,
 * with the node's default Max Retries: each worker keeps to its share of the window, so no item runs out of retries.
 */
export const RATE_LIMITED_PLAN: ImportPlan = {
	...IMPORT_PLAN,
	label: 'queue-limited',
	rateLimit: { limit: 100, windowMs: 1000 },
};

/** The rate-limited import with Create or Update, which a user can run again after a failure: the worker-death run. */
export const RERUNNABLE_PLAN: ImportPlan = { ...RATE_LIMITED_PLAN, label: 'queue-rerun', settings: { ...RATE_LIMITED_PLAN.settings, operation: 'upsert' } };
