import { N8N_VERSION } from '../../host/install';
import { stopOnSignals } from '../../host/processes';
import { handOver } from '../../e2e/setup/context';
import { startCluster, type Cluster } from '../host/cluster';
import { QUEUE_CONTEXT_ENV, type QueueContext } from './context';
import globalTeardown from './globalTeardown';

declare global {
	// Shared with globalTeardown, which runs in this process (after the suite, or on a signal).
	var n8nErpQueueCluster: Cluster | undefined;
}

const OWNER = { email: 'queue@example.com', password: 'Queue-m0de-run', firstName: 'Queue', lastName: 'Mode' };
const WEBHOOK_RETRY_DELAYS_MS = [1000, 2000, 4000];
// The time the ERP gives n8n to answer a delivery before it sends it again (and n8n starts a second execution).
// The sandbox's default, 5 s, was exceeded by the webhook processor under 20 deliveries at once on this 2-core
// machine shared with other test suites (load 5 to 12); docs/queue-mode.md records the answer times.
const WEBHOOK_TIMEOUT_MS = 30_000;

/** One queue-mode cluster for the whole suite (its test file runs its scenarios in order). */
export default async function globalSetup(): Promise<void> {
	const log = (line: string) => process.stderr.write(`[queue] ${line}\n`);
	stopOnSignals(globalTeardown, log);
	const cluster = await startCluster({
		owner: OWNER,
		// Shorter than n8n's 60 s / 10 s / 30 s, so that a killed worker's executions are given up within about
		// 20 s instead of 90 s; what n8n does with them is the same (docs/queue-mode.md).
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
	globalThis.n8nErpQueueCluster = cluster;
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
