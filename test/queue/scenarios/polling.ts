import { readFileSync } from 'node:fs';

import { createContact } from '../../../bench/contacts';
import { sleep } from '../../../tooling/host/processes';
import type { Credential, Execution, WorkflowDefinition } from '../../../tooling/host/types';
import { allExecutions, atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { byId, chain, ERP_POLLING_TRIGGER_NAME, erpNode, erpPollingTriggerNode } from '../../../tooling/host/workflows';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { N8N_VERSION } from '../../../tooling/host/install';
import { n8nLine } from '../../../tooling/host/lines';
import { killN8n, stopN8n } from '../../../tooling/host/n8nProcess';
import { perWorker, recordedWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { type QueueSession, reconnectMain, startAgain } from '../support/session';
import { mainIsDown } from './mainDown';
import { workerNode } from '../../../tooling/host/queue/workflows';

export const POLLING_TRIGGER = ERP_POLLING_TRIGGER_NAME;
const WORKFLOW_NAME = 'queue polling contacts';
/** The shortest Poll Times the line accepts (every 10 s), as in the e2e polling tests. */
export const POLL = n8nLine(N8N_VERSION).shortestPoll;
/** A poll's execution is waited for up to this long. */
const POLL_WAIT_MS = POLL.intervalMs + 20_000;
/** Main stays down longer than one poll interval, so that at least one poll time passes while it is down. */
const MAIN_DOWN_MS = POLL.intervalMs + 10_000;

/** ERP Polling Trigger (contacts, Record Added, every 10 s) → Worker (per item) → ERP Contact › Get of each. */
function pollingWorkflow(credential: Credential): WorkflowDefinition {
	const trigger = erpPollingTriggerNode(POLL.pollTimes, { triggerOn: 'contact:recordAdded' }, credential);
	return chain(WORKFLOW_NAME, [
		trigger,
		workerNode(false),
		erpNode({ resource: 'contact', operation: 'get', contactId: byId('={{ $json.data.id }}') }, credential, 'Get Contact'),
	]);
}

const isScan = (r: RequestLogEntry) => r.method === 'GET' && r.path === '/contacts' && (r.query.page ?? '1') === '1';

const contactIdOf = (json: Record<string, unknown>) => Number((json.data as { id?: unknown } | undefined)?.id);

/** Trigger items of these executions: contact IDs, in order. */
const reportedIds = (executions: Execution[]) => executions.flatMap((e) => nodeOutput(e, POLLING_TRIGGER).map(contactIdOf));

async function createContacts(session: QueueSession, label: string, count: number): Promise<number[]> {
	const ids: number[] = [];
	for (let i = 0; i < count; i++) {
		const stamp = `${label}-${i}-${Date.now()}`;
		ids.push(await createContact(session.ctx.erp, { first_name: `Polled${i}`, last_name: label, email: `${stamp}@poll.example`, company: 'Queue' }));
	}
	return ids;
}

/** Lines of a process's log matching `pattern` (its first group), across its restarts (the log is appended to). */
function logMatches(logFile: string, pattern: RegExp): string[] {
	return [...readFileSync(logFile, 'utf8').matchAll(pattern)].map((m) => m[1]);
}

export const countBy = (values: string[]) => values.reduce<Record<string, number>>((counts, v) => ({ ...counts, [v]: (counts[v] ?? 0) + 1 }), {});

/**
 * An active ERP Polling Trigger workflow in the cluster. Publishing it starts an execution (PublishFigures), awaited
 * first. Then contacts are created through the ERP's API in four steps: with everything up; with `victimName`
 * killed (SIGKILL) after the previous poll; with it started again; and while main is stopped (longer than a poll
 * interval), then started again. After each step, waits for the executions that report the step's contacts; at the
 * end, for one more poll that must report nothing. Answers what n8n, the processes' logs and the ERP's request log
 * recorded.
 */
export async function pollingInTheCluster(session: QueueSession, victimName: string) {
	const main = session.ctx.processes.find((p) => p.spec.role === 'main');
	const victim = session.ctx.processes.find((p) => p.spec.name === victimName);
	if (!main || !victim) throw new Error(`no main or no ${victimName} in the context`);
	const pollLines = () => logMatches(main.logFile, new RegExp(`(Poll trigger initiated) for workflow "${WORKFLOW_NAME}"`, 'g')).length;

	const workflow = await session.n8n.createActiveWorkflow(pollingWorkflow(session.ctx.credential));
	// Activation is synchronous here (no publication service): its poll, the baseline, is done and logged.
	const afterBaseline = await session.sandbox.lastRequestSeq();
	const pollsAtBaseline = pollLines();
	const published = await waitForExecutions(session.n8n, workflow.id, atLeast(1));

	const steps: Array<{ label: string; contactsCreated: number; executions: number; perWorker: Record<string, number> }> = [];
	const created: number[] = [];
	let counted = published.length;
	const step = async (label: string, ids: number[]) => {
		created.push(...ids);
		const reportsAll = (executions: Execution[]) => created.every((id) => reportedIds(executions).includes(id));
		const executions = await waitForExecutions(session.n8n, workflow.id, reportsAll, POLL_WAIT_MS + 30_000);
		const fresh = executions.slice(counted);
		counted = executions.length;
		steps.push({ label, contactsCreated: ids.length, executions: fresh.length, perWorker: perWorker(fresh) });
		return executions;
	};

	await step('all processes up', await createContacts(session, 'poll-up', 20));

	await killN8n(victim);
	await step(`${victimName} killed (SIGKILL) after the previous poll`, await createContacts(session, 'poll-killed', 10));
	const workerRestart = await startAgain(session, victim.spec);
	await step(`${victimName} started again`, await createContacts(session, 'poll-restarted', 10));

	await stopN8n(main);
	if (!(await mainIsDown(session.ctx.mainUrl))) throw new Error('main still answers after its process group stopped');
	const downSince = Date.now();
	const downFrom = await session.sandbox.lastRequestSeq();
	const whileDown = await createContacts(session, 'poll-main-down', 10);
	await sleep(Math.max(0, MAIN_DOWN_MS - (Date.now() - downSince)));
	const scansWhileMainDown = (await session.sandbox.requests(downFrom)).filter(isScan).length;
	const mainDownMs = Date.now() - downSince;
	if (!(await mainIsDown(session.ctx.mainUrl))) throw new Error('main answered while it was meant to be down');
	const mainRestart = await startAgain(session, main.spec);
	const restartedAt = Date.now();
	await reconnectMain(session);
	// The activation poll of the restarted main reports what was created while it was down.
	await step('created while main was down; main started again', whileDown);

	// One more poll after the last execution: it must start none (nothing left to report, nothing twice).
	const lastSeq = await session.sandbox.lastRequestSeq();
	const deadline = Date.now() + POLL_WAIT_MS;
	let scansAfterLast = 0;
	while (scansAfterLast === 0 && Date.now() < deadline) {
		await sleep(1000);
		scansAfterLast = (await session.sandbox.requests(lastSeq)).filter(isScan).length;
	}
	// The poll that scanned would have enqueued its execution before this reads the list again.
	await sleep(5000);
	const final = await allExecutions(session.n8n, workflow.id, true);
	const mainPolls = pollLines() - pollsAtBaseline;
	const requests = await session.sandbox.requests(afterBaseline);
	const scanTimes = requests.filter(isScan).map((r) => Date.parse(r.at));
	// Scheduled polls only: before main stopped, and after the restarted main's activation poll.
	const gapsOf = (times: number[]) => times.slice(1).map((at, i) => (at - times[i]) / 1000);
	const gaps = [...gapsOf(scanTimes.filter((at) => at < downSince)), ...gapsOf(scanTimes.filter((at) => at > restartedAt - mainRestart.bootMs).slice(1))];

	const reported = reportedIds(final);
	const perContact = countBy(reported.map(String));
	const createdSet = new Set(created.map(String));
	const lookUps = countBy(
		requests.filter((r) => r.method === 'GET' && r.status === 200 && /^\/contacts\/\d+$/.test(r.path)).map((r) => r.path.slice('/contacts/'.length)),
	);
	const startedBy = startedByWorker(session.ctx);
	const enqueuers = new Map<string, string>();
	for (const { spec, logFile } of session.ctx.processes) {
		for (const id of logMatches(logFile, /Enqueued execution (\d+) \(job/g)) enqueuers.set(id, spec.name);
	}
	const queuedBy = (executions: Execution[]) => executions.map((e) => enqueuers.get(e.id) ?? 'none found');
	const publish = final.slice(0, published.length);
	const reporting = final.slice(published.length);
	// publish: the executions publishing started (main's activation poll, the baseline, reports nothing and starts one
	// with no items so that n8n keeps it); enqueuedBy: per process, the jobs its log says it put in Redis.
	return {
		contactsCreated: created.length,
		reports: reported.length,
		lost: created.filter((id) => !perContact[String(id)]).length,
		twice: Object.entries(perContact).filter(([id, n]) => createdSet.has(id) && n > 1).length,
		unexpected: reported.filter((id) => !createdSet.has(String(id))).length,
		executions: final.length,
		succeeded: final.filter((e) => e.status === 'success').length,
		perWorker: perWorker(reporting),
		publish: {
			executions: publish.length,
			succeeded: publish.filter((e) => e.status === 'success').length,
			items: reportedIds(publish).length,
			nodesRun: [...new Set(publish.flatMap((e) => Object.keys(e.data?.resultData.runData ?? {})))],
			queuedBy: queuedBy(publish),
			ranOn: publish.map((e) => startedBy.get(e.id) ?? 'none found'),
		},
		emptyAfterPublish: reporting.filter((e) => nodeOutput(e, POLLING_TRIGGER).length === 0).length,
		workerMismatches: reporting.filter((e) => !recordedWorker(e)?.startsWith('worker-') || startedBy.get(e.id) !== recordedWorker(e)).length,
		enqueuedBy: countBy(queuedBy(final)),
		lookedUpOnce: created.filter((id) => lookUps[String(id)] === 1).length,
		lookedUpTwice: created.filter((id) => (lookUps[String(id)] ?? 0) > 1).length,
		scans: scanTimes.length,
		mainPolls,
		scanGapsS: { min: Math.min(...gaps), max: Math.max(...gaps) },
		mainDownMs,
		scansWhileMainDown,
		scansAfterLast,
		events: [...new Set(final.flatMap((e) => nodeOutput(e, POLLING_TRIGGER).map((json) => String(json.event))))],
		steps,
		workerRestartBootMs: workerRestart.bootMs,
		mainRestartBootMs: mainRestart.bootMs,
	};
}

export type PollingFigures = Awaited<ReturnType<typeof pollingInTheCluster>>;
