import { N8N_VERSION } from '../../../tooling/host/install';
import { stopOnSignals } from '../../../tooling/host/processes';
import { handOver } from '../../../tooling/host/context';
import { type Cluster, startCluster } from '../../../tooling/host/queue/cluster';
import { QUEUE_CONTEXT_ENV } from '../support/session';
import globalTeardown from '../../../tooling/host/globalTeardown';

const OWNER = { email: 'queue@example.com', password: 'Queue-m0de-run', firstName: 'Queue', lastName: 'Mode' };
const WEBHOOK_RETRY_DELAYS_MS = [1000, 2000, 4000];
// How long the ERP gives n8n to answer a delivery before sending it again (and n8n starting a second execution):
// under 20 deliveries at once here the webhook processor took over the default 5 s (docs/queue-mode.md).
const WEBHOOK_TIMEOUT_MS = 30_000;

/** What globalSetup hands to the suite (through a JSON file named in the environment). */
const queueContext = (cluster: Cluster) => ({
	mainUrl: cluster.client.baseUrl,
	/** The webhook processor: the ERP posts its events here. */
	webhookUrl: cluster.processes.find((p) => p.spec.role === 'webhook')?.baseUrl ?? '',
	sandboxUrl: cluster.sandbox.url,
	/** The ERP's API as the credential reaches it, for writing to the ERP directly. */
	erp: { baseUrl: cluster.sandbox.baseUrl, token: cluster.sandbox.token },
	owner: OWNER,
	apiKey: cluster.apiKey,
	credential: cluster.credential,
	processes: cluster.processes.map(({ spec, pid, logFile }) => ({ spec, pid, logFile })),
	timings: cluster.timings,
	/** The sandbox's webhook retry delays (a delivery is retried when n8n does not answer 2xx in time). */
	webhookRetryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
	webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
	n8nVersion: N8N_VERSION,
});

export type QueueContext = ReturnType<typeof queueContext>;

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
	handOver(cluster.run.dir, 'queue', queueContext(cluster), QUEUE_CONTEXT_ENV);
}
