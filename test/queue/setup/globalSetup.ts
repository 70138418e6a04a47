import { N8N_VERSION } from '../../../tooling/host/install';
import { stopOnSignals } from '../../../tooling/host/processes';
import { handOver } from '../../../tooling/host/context';
import { startCluster } from '../../../tooling/host/queue/cluster';
import { QUEUE_CONTEXT_ENV, type QueueContext } from '../support/session';
import globalTeardown from '../../../tooling/host/globalTeardown';

const OWNER = { email: 'queue@example.com', password: 'Queue-m0de-run', firstName: 'Queue', lastName: 'Mode' };
const WEBHOOK_RETRY_DELAYS_MS = [1000, 2000, 4000];
// How long the ERP gives n8n to answer a delivery before sending it again (and n8n starting a second execution):
// under 20 deliveries at once here the webhook processor took over the default 5 s (docs/queue-mode.md).
const WEBHOOK_TIMEOUT_MS = 30_000;

/** One queue-mode cluster for the whole suite (its test file runs its scenarios in order). */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[queue] ${line}\n`);
	stopOnSignals(globalTeardown, log);
	const cluster = await startCluster({
		owner: OWNER,
		// Shorter than n8n's 60/10/30 s: a killed worker's executions are given up after about 20 s, not 90 s; what n8n does with them is the same (docs/queue-mode.md).
		lock: { durationMs: 15_000, renewMs: 5000, stalledIntervalMs: 5000 },
		sandbox: {
			rateLimit: null,
			overdueSweepMs: 0,
			webhookRetryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
			webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
			seed: { contacts: 10, invoices: 12, products: 10, employees: 5 },
		},
		log,
	});
	globalThis.n8nErpStarted = cluster;
	const context: QueueContext = {
		runId: cluster.run.id,
		mainUrl: cluster.client.baseUrl,
		webhookUrl: cluster.processes.find((p) => p.spec.role === 'webhook')?.baseUrl ?? '',
		sandboxUrl: cluster.sandbox.url,
		erp: { baseUrl: cluster.sandbox.baseUrl, token: cluster.sandbox.token },
		owner: OWNER,
		apiKey: cluster.apiKey,
		credential: cluster.credential,
		processes: cluster.processes.map(({ spec, pid, logFile }) => ({ spec, pid, logFile })),
		timings: cluster.timings,
		webhookRetryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
		webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
		n8nVersion: N8N_VERSION,
	};
	handOver(cluster.run.dir, 'queue', context, QUEUE_CONTEXT_ENV);
}
