import { N8nClient } from '../../../tooling/host/restClient';
import { startQueueProcess, type QueueProcess, type QueueProcessSpec } from '../../../tooling/host/queue/n8nQueueProcess';
import { SandboxAdmin } from '../../../sandbox/adminClient';
import { readContext } from '../../../tooling/host/context';
import { QUEUE_CONTEXT_ENV, type QueueContext } from '../setup/context';

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
