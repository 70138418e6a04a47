import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { groupMembers, sleep, stopGroup } from '../../host/processGroup';
import { spawnOwned, type OwnedRun } from './ownedProcesses';

export type Role = 'main' | 'worker' | 'webhook';

const COMMAND: Record<Role, string> = { main: 'start', worker: 'worker', webhook: 'webhook' };

/** What every n8n process of the cluster shares: one key, one database, one Redis, one public webhook URL. */
export interface ClusterSettings {
	run: OwnedRun;
	nodeBin: string;
	n8nBin: string;
	encryptionKey: string;
	postgres: { port: number; database: string; user: string };
	redisPort: number;
	/** The webhook processor's address: what n8n shows as Production URL, what the ERP posts to. */
	webhookUrl: string;
	editorUrl: string;
	/** Bull's lock and stalled-job timings (ms); see docs/queue-mode.md. */
	lock: { durationMs: number; renewMs: number; stalledIntervalMs: number };
}

/** One process: JSON-serialisable, so that a test can start a stopped worker again from the context file. */
export interface QueueProcessSpec {
	/** main, worker-1, worker-2, webhook: also what a workflow reads as $env.N8N_ERP_QUEUE_PROCESS. */
	name: string;
	role: Role;
	/** Its own user folder, with the package installed in `.n8n/nodes`. */
	userFolder: string;
	/** HTTP port: the editor and API (main), webhooks (webhook), health checks (worker). */
	port: number;
	brokerPort: number;
	cluster: ClusterSettings;
}

export interface QueueProcess {
	spec: QueueProcessSpec;
	/** The n8n process, leader of its process group (its task runners belong to it). */
	pid: number;
	logFile: string;
	baseUrl: string;
	bootMs: number;
}

export const PROCESS_NAME_ENV = 'N8N_ERP_QUEUE_PROCESS';
const READY_TIMEOUT_MS = 180_000;

function environment(spec: QueueProcessSpec): NodeJS.ProcessEnv {
	const { cluster } = spec;
	const env: NodeJS.ProcessEnv = { ...process.env };
	// jest's variables would make n8n believe it runs inside a test.
	for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('JEST_')) delete env[name];
	return {
		...env,
		PATH: `${path.dirname(cluster.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: spec.userFolder,
		N8N_PORT: String(spec.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: cluster.editorUrl,
		WEBHOOK_URL: cluster.webhookUrl,
		N8N_WEBHOOK_URL: cluster.webhookUrl,
		N8N_ENCRYPTION_KEY: cluster.encryptionKey,
		N8N_RUNNERS_BROKER_PORT: String(spec.brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
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
		QUEUE_HEALTH_CHECK_PORT: String(spec.port),
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		// Lets a workflow record which process ran it ({{ $env.N8N_ERP_QUEUE_PROCESS }}).
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		[PROCESS_NAME_ENV]: spec.name,
		// Production webhooks are the webhook processor's job; main keeps the editor, the API and activation.
		// Main logs at debug for its "Poll trigger initiated" lines: the polls the ERP's list scans are counted against.
		...(spec.role === 'main' ? { N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true', N8N_LOG_LEVEL: 'debug' } : {}),
	};
}

const alive = (pid: number) => groupMembers(pid).length > 0;

function logTail(file: string): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
	} catch {
		return '(no log)';
	}
}

/**
 * Starts one n8n process of the cluster under Node 24 (`n8n start`, `n8n worker` or `n8n webhook`), logging to
 * `<userFolder>/n8n.log`, and resolves once it answers `/healthz/readiness`.
 */
export async function startQueueProcess(spec: QueueProcessSpec): Promise<QueueProcess> {
	const baseUrl = `http://127.0.0.1:${spec.port}`;
	// Otherwise an earlier process still on the port would answer the readiness check for this one.
	if (await fetch(`${baseUrl}/healthz`).then(() => true, () => false)) throw new Error(`n8n ${spec.name}: port ${spec.port} already answers; is an earlier ${spec.name} still running?`);
	mkdirSync(spec.userFolder, { recursive: true });
	const logFile = path.join(spec.userFolder, 'n8n.log');
	const started = Date.now();
	const pid = spawnOwned(spec.cluster.nodeBin, [spec.cluster.n8nBin, COMMAND[spec.role]], {
		run: spec.cluster.run,
		env: environment(spec),
		logFile,
		cwd: spec.userFolder,
	});
	const deadline = started + READY_TIMEOUT_MS;
	for (;;) {
		if (!alive(pid)) throw new Error(`n8n ${spec.name} exited during boot. Last lines of ${logFile}:\n${logTail(logFile)}`);
		if (await fetch(`${baseUrl}/healthz/readiness`).then((r) => r.ok, () => false)) break;
		if (Date.now() > deadline) {
			await stopGroup(pid, 5000);
			throw new Error(`n8n ${spec.name} was not ready within ${READY_TIMEOUT_MS / 1000} s. Last lines of ${logFile}:\n${logTail(logFile)}`);
		}
		await sleep(250);
	}
	return { spec, pid, logFile, baseUrl, bootMs: Date.now() - started };
}

/** n8n's graceful shutdown (a worker finishes its running executions first), then SIGKILL after `graceMs`. */
export async function stopQueueProcess(target: Pick<QueueProcess, 'pid'>, graceMs = 20_000): Promise<void> {
	await stopGroup(target.pid, graceMs);
}

/** What a crash, the OOM killer or a lost machine does: SIGKILL to n8n and its task runners, no shutdown. */
export async function killQueueProcess(target: Pick<QueueProcess, 'pid'>): Promise<void> {
	try {
		process.kill(-target.pid, 'SIGKILL');
	} catch {
		// already gone
	}
	while (alive(target.pid)) await sleep(50);
}
