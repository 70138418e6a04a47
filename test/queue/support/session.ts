import { createContact } from '../../../bench/contacts';
import { SandboxAdmin } from '../../../sandbox/adminClient';
import type { EventName } from '../../../sandbox/events';
import { readContext } from '../../../tooling/host/context';
import { erpApi } from '../../../tooling/host/erpApi';
import { erpTriggers, erpTriggerType, triggerUrl } from '../../../tooling/host/examples';
import { stopN8n } from '../../../tooling/host/n8nProcess';
import { sleep } from '../../../tooling/host/processes';
import { recordedWorker } from '../../../tooling/host/queue/executions';
import { type QueueProcess, type QueueProcessSpec, startQueueProcess } from '../../../tooling/host/queue/n8nQueueProcess';
import { N8nClient } from '../../../tooling/host/restClient';
import { settledDeliveries } from '../../../tooling/host/triggers';
import type { Execution, WorkflowDefinition } from '../../../tooling/host/types';
import type { QueueContext } from '../setup/globalSetup';

export const QUEUE_CONTEXT_ENV = 'N8N_ERP_QUEUE_CONTEXT';

/**
 * Connects the suite to the cluster and sandbox globalSetup started: n8n main's API, logged in as the owner, with the
 * public API key; the webhook processor, where production webhook calls go, never to main.
 */
export async function connect() {
	const ctx = readContext<QueueContext>(QUEUE_CONTEXT_ENV);
	const n8n = new N8nClient(ctx.mainUrl, ctx.apiKey);
	await n8n.login(ctx.owner);
	return { ctx, n8n, webhooks: new N8nClient(ctx.webhookUrl), sandbox: new SandboxAdmin(ctx.sandboxUrl) };
}

export type QueueSession = Awaited<ReturnType<typeof connect>>;

/** The cluster's process of this name: main, worker-1, worker-2 or webhook. */
export function processNamed(session: QueueSession, name: string): QueueContext['processes'][number] {
	const found = session.ctx.processes.find((p) => p.spec.name === name);
	if (!found) throw new Error(`no process ${name} in the context`);
	return found;
}

/** Starts a stopped or killed process of the cluster again and records its new pid in the context, for a later scenario that stops or kills it. */
export async function startAgain(session: QueueSession, spec: QueueProcessSpec): Promise<QueueProcess> {
	const started = await startQueueProcess(spec);
	const i = session.ctx.processes.findIndex((p) => p.spec.name === spec.name);
	session.ctx.processes[i] = { spec, pid: started.pid, logFile: started.logFile };
	return started;
}

/** Throws `message` unless main's port no longer answers. */
export async function checkMainDown(session: QueueSession, message: string): Promise<void> {
	const down = await fetch(`${session.ctx.mainUrl}/healthz`).then(() => false, () => true);
	if (!down) throw new Error(message);
}

/** Stops main the ordinary way (SIGTERM) and answers how long its graceful shutdown took. */
export async function stopMain(session: QueueSession): Promise<number> {
	const stopAt = Date.now();
	await stopN8n(processNamed(session, 'main'));
	const stopMs = Date.now() - stopAt;
	await checkMainDown(session, 'main still answers after its process group stopped');
	return stopMs;
}

/** Starts main again, with a fresh login (the session cookie of the old process is still valid, but be plain). */
export async function restartMain(session: QueueSession): Promise<QueueProcess> {
	const restarted = await startAgain(session, processNamed(session, 'main').spec);
	session.n8n = new N8nClient(session.ctx.mainUrl, session.ctx.apiKey);
	await session.n8n.login(session.ctx.owner);
	return restarted;
}

/**
 * Saves and activates `definition`, subscribes its ERP Trigger in the sandbox through the webhook processor's URL
 * (never main's) for `events` (all when absent), runs `work` with it and removes the subscription in the end.
 */
export async function withTrigger<T>(session: QueueSession, definition: WorkflowDefinition, events: EventName[] | undefined, work: (workflowId: string, url: string, subscriptionId: number) => Promise<T>) {
	const workflow = await session.n8n.createActiveWorkflow(definition);
	const url = triggerUrl(session.ctx.webhookUrl, erpTriggers(workflow)[0], await erpTriggerType(session.n8n));
	const { id: subscriptionId } = await session.sandbox.addWebhook({ url, events });
	try {
		return await work(workflow.id, url, subscriptionId);
	} finally {
		await session.sandbox.removeWebhook(subscriptionId);
	}
}

/** Every delivery the sandbox has made to `url` (one trigger's), once it has settled them (delivered, or retries exhausted). */
export async function deliveriesTo(session: QueueSession, url: string) {
	const ids = (await session.sandbox.deliveries()).filter((d) => d.url === url).map((d) => d.id);
	return settledDeliveries(session.sandbox, ids, 60_000);
}

/** A call to the ERP's API directly (not through n8n), as the credential's token. */
export const erpCall = <T>(session: QueueSession, method: string, path: string, body?: object): Promise<T> =>
	erpApi<T>({ sandboxBaseUrl: session.ctx.erp.baseUrl, token: session.ctx.erp.token }, method, path, body);

/** Creates `count` contacts through the ERP's API, one after the other (the sandbox emits contact.created for each); answers their IDs. */
export async function createContacts(session: QueueSession, label: string, count: number): Promise<number[]> {
	const ids: number[] = [];
	for (let i = 0; i < count; i++) {
		ids.push(await createContact(session.ctx.erp, { first_name: `Queue${i}`, last_name: label, email: `${label}-${i}-${Date.now()}@queue.example`, company: 'Queue' }));
	}
	return ids;
}

/** Reads until `done` holds of the answer or `timeoutMs` has passed, `everyMs` apart; answers the last read. */
export async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await read();
	while (!done(value) && Date.now() < deadline) {
		await sleep(everyMs);
		value = await read();
	}
	return value;
}

/** How many times each value occurs. */
export function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

export const succeeded = (executions: Execution[]) => executions.filter((e) => e.status === 'success').length;

/** Executions whose own record and the workers' logs disagree about the worker, or that ran on none. */
export const workerMismatches = (executions: Execution[], startedBy: Map<string, string>) =>
	executions.filter((e) => !recordedWorker(e)?.startsWith('worker-') || startedBy.get(e.id) !== recordedWorker(e)).length;
