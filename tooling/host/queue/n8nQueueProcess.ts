import { startN8n, type N8nProcess, type N8nProcessSpec } from '../n8nProcess';
import type { Run } from '../processes';

export type Role = 'main' | 'worker' | 'webhook';

const COMMAND = { main: 'start', worker: 'worker', webhook: 'webhook' } as const;

/** What every n8n process of the cluster shares: one database, one Redis, one public webhook URL. */
export interface ClusterSettings {
	run: Run;
	install: N8nProcessSpec['install'];
	postgres: { port: number; database: string; user: string };
	redisPort: number;
	/** The webhook processor's address: what n8n shows as Production URL, what the ERP posts to. */
	webhookUrl: string;
	editorUrl: string;
	/** Bull's lock and stalled-job timings (ms); see docs/queue-mode.md. */
	lock: { durationMs: number; renewMs: number; stalledIntervalMs: number };
}

/** One process of the cluster: JSON, so that a test can start a stopped worker again from the context file. */
export interface QueueProcessSpec extends Pick<N8nProcessSpec, 'userFolder' | 'port' | 'brokerPort'> {
	/** main, worker-1, worker-2, webhook: also what a workflow reads as $env.N8N_ERP_QUEUE_PROCESS. */
	name: string;
	role: Role;
	cluster: ClusterSettings;
}

export interface QueueProcess extends N8nProcess {
	spec: QueueProcessSpec;
}

export const PROCESS_NAME_ENV = 'N8N_ERP_QUEUE_PROCESS';

/** What queue mode adds to every n8n process's environment (tooling/host/n8nProcess.ts). */
function queueEnvironment({ name, role, port, cluster }: QueueProcessSpec): Record<string, string> {
	return {
		N8N_EDITOR_BASE_URL: cluster.editorUrl,
		WEBHOOK_URL: cluster.webhookUrl,
		N8N_WEBHOOK_URL: cluster.webhookUrl,
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(cluster.postgres.port),
		DB_POSTGRESDB_DATABASE: cluster.postgres.database,
		DB_POSTGRESDB_USER: cluster.postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(cluster.redisPort),
		// With 0, a webhook call once hung under load (Bull looking for a finished job already removed).
		N8N_EXECUTIONS_QUEUE_KEEP_LAST_COMPLETED: '500',
		N8N_EXECUTIONS_QUEUE_KEEP_LAST_FAILED: '500',
		QUEUE_WORKER_LOCK_DURATION: String(cluster.lock.durationMs),
		QUEUE_WORKER_LOCK_RENEW_TIME: String(cluster.lock.renewMs),
		QUEUE_WORKER_STALLED_INTERVAL: String(cluster.lock.stalledIntervalMs),
		// Workers answer /healthz/readiness on their port once connected to the database and Redis.
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(port),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		// Lets a workflow record which process ran it ({{ $env.N8N_ERP_QUEUE_PROCESS }}).
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		[PROCESS_NAME_ENV]: name,
		// Production webhooks are the webhook processor's job; main keeps the editor, the API and activation.
		// Main logs at debug for its "Poll trigger initiated" lines: the polls the ERP's list scans are counted against.
		...(role === 'main' ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true', N8N_LOG_LEVEL: 'debug' } : {}),
	};
}

/** Starts one n8n process of the cluster, as a process of its run. */
export async function startQueueProcess(spec: QueueProcessSpec): Promise<QueueProcess> {
	const { userFolder, port, brokerPort, cluster } = spec;
	const n8n = await startN8n({ install: cluster.install, run: cluster.run, userFolder, port, brokerPort, command: COMMAND[spec.role], environment: queueEnvironment(spec) });
	return { ...n8n, spec };
}
