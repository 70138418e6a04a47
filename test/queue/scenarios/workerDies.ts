import { atLeast, waitForExecutions } from '../../../tooling/host/executions';
import { sleep } from '../../../tooling/host/processes';
import { killN8n } from '../../../tooling/host/n8nProcess';
import { perWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { type QueueSession, startAgain } from '../support/session';
import { erpCopies, finishImport, type ImportPlan, outcomes, rowsOf, sendChunks, startImport, tallyRows } from './import';
import { countBy } from './polling';

/** Polls the ERP until it holds `count` contacts of the import (the import is then well under way). */
async function waitForContacts(session: QueueSession, tag: string, count: number): Promise<number> {
	const deadline = Date.now() + 5 * 60_000;
	for (;;) {
		const held = (await erpCopies(session, tag)).size;
		if (held >= count) return held;
		if (Date.now() > deadline) throw new Error(`the import wrote only ${held} of ${count} contacts within 5 minutes`);
		await sleep(200);
	}
}

/**
 * Runs the import and SIGKILLs `victimName` (n8n and its task runner, no shutdown) once the ERP holds
 * `killAtContacts` of its contacts. Waits for n8n to give the victim's executions up and counts what the ERP
 * holds; clicks Retry on each; sends the rows of the killed executions again; counts again; and starts the
 * victim once more.
 */
export async function killWorkerDuringImport(
	session: QueueSession,
	plan: ImportPlan,
	victimName: string,
	killAtContacts: number,
) {
	const victim = session.ctx.processes.find((p) => p.spec.name === victimName);
	if (!victim) throw new Error(`no process ${victimName} in the context`);
	const started = await startImport(session, plan);
	const contactsAtKill = await waitForContacts(session, started.tag, killAtContacts);
	const killedAt = Date.now();
	await killN8n(victim);

	const { figures: importFigures, executions } = await finishImport(session, started);
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
	const killedChunks = started.chunks.filter((chunk) => !doneFirstRows.has(chunk[0].email));
	const copiesAfterKill = await erpCopies(session, started.tag);
	const survivorName = session.ctx.processes.find((p) => p.spec.role === 'worker' && p.spec.name !== victimName)?.spec.name ?? '';
	const survivorExecutions = executions.filter((e) => startedBy.get(e.id) === survivorName);

	const beforeRetry = await session.sandbox.lastRequestSeq();
	for (const execution of killed) await session.n8n.rest('POST', `/rest/executions/${execution.id}/retry`, { loadWorkflow: true });
	const afterRetry = await waitForExecutions(session.n8n, started.workflowId, atLeast(executions.length + killed.length), 5 * 60_000);
	const retries = afterRetry.filter((e) => killed.some((k) => k.id === e.retryOf));
	const erpRequests = (await session.sandbox.requests(beforeRetry)).length;

	await sendChunks(session, started.path, killedChunks);
	const afterResend = await waitForExecutions(session.n8n, started.workflowId, atLeast(afterRetry.length + killedChunks.length), 5 * 60_000);
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
		survivor: {
			name: survivorName,
			executions: survivorExecutions.length,
			succeeded: survivorExecutions.filter((e) => e.status === 'success').length,
		},
		import: importFigures,
		retry: { executions: retries.length, statuses: countBy(retries.map((e) => e.status)), erpRequests },
		resend: {
			executions: resent.length,
			succeeded: resent.filter((e) => e.status === 'success').length,
			perWorker: perWorker(resent),
			outcomes: outcomes(resent),
			erp: tallyRows(await erpCopies(session, started.tag), started.chunks.flat()),
			writtenBeforeDeath: killedChunks.reduce((total, chunk) => total + tallyRows(copiesAfterKill, chunk).records, 0),
		},
		restartBootMs: restarted.bootMs,
	};
}

export type WorkerDeathFigures = Awaited<ReturnType<typeof killWorkerDuringImport>>;
