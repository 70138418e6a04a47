import { N8nClient, type Owner } from '../../../tooling/host/restClient';
import type { Credential, WorkflowDefinition } from '../../../tooling/host/types';
import { erpApi } from '../../../tooling/host/erpApi';
import { erpTriggers, erpTriggerType, triggerUrl } from '../../../tooling/host/examples';
import type { EventName } from '../../../sandbox/events';
import type { ClusterTimings } from '../../../tooling/host/queue/cluster';
import { type QueueProcess, type QueueProcessSpec, startQueueProcess } from '../../../tooling/host/queue/n8nQueueProcess';
import { SandboxAdmin } from '../../../sandbox/adminClient';
import { readContext } from '../../../tooling/host/context';

/** What globalSetup hands to the suite (through a JSON file named in the environment). */
export interface QueueContext {
	runId: string;
	mainUrl: string;
	/** The webhook processor: the ERP posts its events here. */
	webhookUrl: string;
	sandboxUrl: string;
	/** The ERP's API as the credential reaches it, for writing to the ERP directly. */
	erp: { baseUrl: string; token: string };
	owner: Owner;
	apiKey: string;
	credential: Credential;
	processes: Array<{ spec: QueueProcessSpec; pid: number; logFile: string }>;
	timings: ClusterTimings;
	/** The sandbox's webhook retry delays (a delivery is retried when n8n does not answer 2xx in time). */
	webhookRetryDelaysMs: number[];
	webhookTimeoutMs: number;
	n8nVersion: string;
}

export const QUEUE_CONTEXT_ENV = 'N8N_ERP_QUEUE_CONTEXT';

export interface QueueSession {
	ctx: QueueContext;
	/** n8n main's API, logged in as the owner, with the public API key. */
	n8n: N8nClient;
	/** The webhook processor: production webhook calls go here, never to main. */
	webhooks: N8nClient;
	sandbox: SandboxAdmin;
}

/** Connects the suite to the cluster and sandbox globalSetup started. */
export async function connect(): Promise<QueueSession> {
	const ctx = readContext<QueueContext>(QUEUE_CONTEXT_ENV);
	const n8n = new N8nClient(ctx.mainUrl, ctx.apiKey);
	await n8n.login(ctx.owner);
	return { ctx, n8n, webhooks: new N8nClient(ctx.webhookUrl), sandbox: new SandboxAdmin(ctx.sandboxUrl) };
}

/** After main was started again: a fresh login (the session cookie of the old process is still valid, but be plain). */
export async function reconnectMain(session: QueueSession): Promise<void> {
	session.n8n = new N8nClient(session.ctx.mainUrl, session.ctx.apiKey);
	await session.n8n.login(session.ctx.owner);
}

/** Starts a stopped or killed process of the cluster again and records its new pid in the context, for a later scenario that stops or kills it. */
export async function startAgain(session: QueueSession, spec: QueueProcessSpec): Promise<QueueProcess> {
	const started = await startQueueProcess(spec);
	const i = session.ctx.processes.findIndex((p) => p.spec.name === spec.name);
	session.ctx.processes[i] = { spec, pid: started.pid, logFile: started.logFile };
	return started;
}

/**
 * Saves and activates `definition` and subscribes its ERP Trigger in the sandbox through the webhook processor's URL
 * (never main's), for `events` (all when absent).
 */
export async function subscribedTrigger(session: QueueSession, definition: WorkflowDefinition, events?: EventName[]) {
	const workflow = await session.n8n.createActiveWorkflow(definition);
	const url = triggerUrl(session.ctx.webhookUrl, erpTriggers(workflow)[0], await erpTriggerType(session.n8n));
	const { id: subscriptionId } = await session.sandbox.addWebhook({ url, events });
	return { workflow, url, subscriptionId };
}

/** A call to the ERP's API directly (not through n8n), as the credential's token. */
export const erpCall = <T>(session: QueueSession, method: string, path: string, body?: object): Promise<T> =>
	erpApi<T>({ sandboxBaseUrl: session.ctx.erp.baseUrl, token: session.ctx.erp.token }, method, path, body);
