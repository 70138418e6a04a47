import { contactRows, type Tally } from '../../../bench/contacts';
import type { ContactRow } from '../../../bench/rawTasks';
import { atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import type { Execution } from '../../../tooling/host/types';
import type { RateLimitConfig } from '../../../sandbox/rateLimit';
import { killN8n } from '../../../tooling/host/n8nProcess';
import { lastStoppedAfter, mostAtOnce, perWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { countBy, processNamed, type QueueSession, readUntil, startAgain, succeeded } from '../support/session';
import { IMPORT_NODE, type ImportSettings, importWorkflow } from '../../../tooling/host/queue/workflows';

export interface ImportPlan {
	label: string;
	executions: number;
	rowsPerExecution: number;
	settings: ImportSettings;
	/** The ERP's limit during the import (shared by every worker: one token); null: none. */
	rateLimit: RateLimitConfig | null;
}

/** One call of the import webhook per chunk, all at once, on the webhook processor. */
async function sendChunks(session: QueueSession, path: string, chunks: ContactRow[][]): Promise<void> {
	const answers = await Promise.all(chunks.map((chunk) => session.webhooks.callWebhook(path, { rows: chunk })));
	const refused = answers.filter((answer) => answer.status !== 200);
	if (refused.length) throw new Error(`the webhook processor refused ${refused.length} import calls: ${JSON.stringify(refused[0])}`);
}

/** The rows an execution of the import received: its Webhook node's output, saved before it was queued. */
const rowsOf = (execution: Execution): ContactRow[] =>
	(nodeOutput(execution, 'Webhook')[0]?.body as { rows?: ContactRow[] } | undefined)?.rows ?? [];

/** The contacts of the import that the ERP holds, per e-mail (2: written twice). */
const erpCopies = async (session: QueueSession, tag: string) =>
	countBy((await session.sandbox.records('contacts')).map((contact) => contact.email ?? '').filter((email) => email.startsWith(`${tag}-`)));

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);

/** What the ERP holds of some rows: the sandbox's own state, not what the workflow reported. */
function tallyRows(copies: Record<string, number>, rows: ContactRow[]): Tally {
	const held = rows.map((row) => copies[row.email] ?? 0);
	return { records: sum(held), missing: held.filter((n) => n === 0).length, duplicates: sum(held.map((n) => Math.max(0, n - 1))) };
}

/** The import node's output items; On Error: Continue turns a failed item into one with `error`. */
const importItems = (executions: Execution[]) => executions.flatMap((e) => nodeOutput(e, IMPORT_NODE));

/**
 * Saves and activates the import workflow, sets the ERP's rate limit, then calls its webhook on the webhook processor
 * once per chunk of rows, all at once: each call is one execution, queued in Redis for the workers. Runs `during`
 * meanwhile (when given), then waits for every execution and counts the result in the ERP and in n8n.
 */
export async function runImport(session: QueueSession, plan: ImportPlan, during?: (tag: string) => Promise<void>) {
	const { tag, rows } = contactRows(plan.label, plan.executions * plan.rowsPerExecution);
	const chunks = Array.from({ length: plan.executions }, (_, i) => rows.slice(i * plan.rowsPerExecution, (i + 1) * plan.rowsPerExecution));
	const path = `queue-import-${tag}`;
	const workflow = await session.n8n.createActiveWorkflow(importWorkflow(path, session.ctx.credential, plan.settings));
	await session.sandbox.setFaults({ rateLimit: plan.rateLimit });
	const since = await session.sandbox.lastRequestSeq();
	const startedAt = Date.now();
	await sendChunks(session, path, chunks);
	await during?.(tag);
	const executions = await waitForExecutions(session.n8n, workflow.id, atLeast(plan.executions), 10 * 60_000);
	const requests = (await session.sandbox.requests(since)).filter((r) => r.path.startsWith('/contacts'));
	const refused429 = requests.filter((r) => r.status === 429).length;
	// seconds: from the first webhook call to the last execution stopped; minimumSeconds: the requests the ERP answered
	// (all but its 429s) over the limit's rate, which no client can beat.
	const figures = {
		executions: executions.length,
		succeeded: succeeded(executions),
		perWorker: perWorker(executions),
		atOnce: mostAtOnce(executions),
		failedItems: importItems(executions).filter((item) => item.error !== undefined).length,
		erp: tallyRows(await erpCopies(session, tag), rows),
		requests: requests.length,
		refused429,
		seconds: lastStoppedAfter(executions, startedAt) / 1000,
		rateLimit: plan.rateLimit,
		minimumSeconds: plan.rateLimit ? ((requests.length - refused429) / plan.rateLimit.limit) * (plan.rateLimit.windowMs / 1000) : null,
		settings: plan.settings,
	};
	await session.sandbox.setFaults({ rateLimit: null });
	return { figures, executions, workflowId: workflow.id, path, tag, chunks };
}

export type ImportFigures = Awaited<ReturnType<typeof runImport>>['figures'];

/**
 * 2,000 contacts as 20 webhook calls of 100 rows, all at once: 20 executions, at most 10 at a time per worker
 * (n8n's default worker concurrency), each creating its 100 contacts (Contact › Create, as the benchmark's one
 * process does) with the node's Concurrency 5.
 */
export const IMPORT_PLAN: ImportPlan = { label: 'queue-import', executions: 20, rowsPerExecution: 100, settings: { operation: 'create', concurrency: 5, maxRetries: 5 }, rateLimit: null };

/**
 * The same against an ERP that allows 100 requests per second to the token all workers share: 20 s at the least,
 * with the node's default Max Retries: each worker keeps to its share of the window, so no item runs out of retries.
 */
export const RATE_LIMITED_PLAN: ImportPlan = { ...IMPORT_PLAN, label: 'queue-limited', rateLimit: { limit: 100, windowMs: 1000 } };

/** The rate-limited import with Create or Update, which a user can run again after a failure: the worker-death run. */
export const RERUNNABLE_PLAN: ImportPlan = { ...RATE_LIMITED_PLAN, label: 'queue-rerun', settings: { ...RATE_LIMITED_PLAN.settings, operation: 'upsert' } };

/**
 * Runs the import and SIGKILLs `victimName` (n8n and its task runner, no shutdown) once the ERP holds
 * `killAtContacts` of its contacts. Waits for n8n to give the victim's executions up and counts what the ERP
 * holds; clicks Retry on each; sends the rows of the killed executions again; counts again; and starts the
 * victim once more.
 */
export async function killWorkerDuringImport(session: QueueSession, plan: ImportPlan, victimName: string, killAtContacts: number) {
	const victim = processNamed(session, victimName);
	let contactsAtKill = 0;
	let killedAt = 0;
	const imported = await runImport(session, plan, async (tag) => {
		contactsAtKill = await readUntil(async () => Object.keys(await erpCopies(session, tag)).length, (n) => n >= killAtContacts, 5 * 60_000, 200);
		if (contactsAtKill < killAtContacts) throw new Error(`the import wrote only ${contactsAtKill} of ${killAtContacts} contacts within 5 minutes`);
		killedAt = Date.now();
		await killN8n(victim);
	});
	const { executions } = imported;
	const startedBy = startedByWorker(session.ctx);
	const failed = executions.filter((e) => e.status !== 'success');
	const killed = failed.map((e) => ({
		id: e.id,
		status: e.status,
		message: e.data?.resultData.error?.message ?? '',
		nodesKept: Object.keys(e.data?.resultData.runData ?? {}).length,
		givenUpAfterMs: Date.parse(e.stoppedAt ?? '') - killedAt,
	}));
	if (failed.some((e) => startedBy.get(e.id) !== victimName)) throw new Error('an execution not on the killed worker failed');
	// n8n keeps no input of a killed execution: its rows are those no successful execution received.
	const doneFirstRows = new Set(executions.filter((e) => e.status === 'success').map((e) => rowsOf(e)[0]?.email));
	const killedChunks = imported.chunks.filter((chunk) => !doneFirstRows.has(chunk[0].email));
	const copiesAfterKill = await erpCopies(session, imported.tag);
	const survivorName = session.ctx.processes.find((p) => p.spec.role === 'worker' && p.spec.name !== victimName)?.spec.name ?? '';
	const survivorExecutions = executions.filter((e) => startedBy.get(e.id) === survivorName);

	const beforeRetry = await session.sandbox.lastRequestSeq();
	for (const execution of killed) await session.n8n.rest('POST', `/rest/executions/${execution.id}/retry`, { loadWorkflow: true });
	const afterRetry = await waitForExecutions(session.n8n, imported.workflowId, atLeast(executions.length + killed.length), 5 * 60_000);
	const retries = afterRetry.filter((e) => killed.some((k) => k.id === e.retryOf));
	const erpRequests = (await session.sandbox.requests(beforeRetry)).length;

	await sendChunks(session, imported.path, killedChunks);
	const afterResend = await waitForExecutions(session.n8n, imported.workflowId, atLeast(afterRetry.length + killedChunks.length), 5 * 60_000);
	const resent = afterResend.slice(afterRetry.length);

	const restarted = await startAgain(session, victim.spec);
	// killedChunks: per chunk the killed executions held, the contacts of its rows in the ERP after the kill; retry: n8n's
	// Retry on each killed execution, and what the ERP received meanwhile; resend: their rows sent again from the source.
	return {
		victim: victimName,
		operation: plan.settings.operation,
		contactsAtKill,
		killed,
		killedChunks: killedChunks.map((chunk) => ({ rows: chunk.length, erpHeld: tallyRows(copiesAfterKill, chunk).records })),
		survivor: { name: survivorName, executions: survivorExecutions.length, succeeded: succeeded(survivorExecutions) },
		import: imported.figures,
		retry: { executions: retries.length, statuses: countBy(retries.map((e) => e.status)), erpRequests },
		resend: {
			executions: resent.length,
			succeeded: succeeded(resent),
			perWorker: perWorker(resent),
			// Create or Update's outcome per row (`action`: created or updated).
			outcomes: countBy(importItems(resent).map((item) => String(item.action ?? (item.error === undefined ? 'no action' : 'error')))),
			erp: tallyRows(await erpCopies(session, imported.tag), imported.chunks.flat()),
			writtenBeforeDeath: sum(killedChunks.map((chunk) => tallyRows(copiesAfterKill, chunk).records)),
		},
		restartBootMs: restarted.bootMs,
	};
}
