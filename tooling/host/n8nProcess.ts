import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import type { N8nInstall } from './install';
import { n8nLine } from './lines';
import { spawnGroup, stopGroup, untilReady, type Run } from './processes';

/** One n8n process: an instance or queue mode's main (`start`), a worker or a webhook processor; JSON, so a test can start it again from its suite's context file. */
export interface N8nProcessSpec {
	install: Pick<N8nInstall, 'version' | 'nodeBin' | 'n8nBin'>;
	/** Its own user folder, with the package installed in `.n8n/nodes`. */
	userFolder: string;
	/** HTTP port: the editor and API (start), webhooks (webhook), health checks (worker). */
	port: number;
	/** The task runner broker's port: two n8n processes on one machine need different ones. */
	brokerPort: number;
	/** Default: start. */
	command?: 'start' | 'worker' | 'webhook';
	/** Default: the host's and the line's environment only; queue mode adds its database, Redis and webhook URL. */
	environment?: Record<string, string>;
	/** The run it belongs to (queue mode); default: it is this process's own, killed when this process exits. */
	run?: Run;
}

export interface N8nProcess {
	/** The n8n process, leader of its process group (its task runners belong to it). */
	pid: number;
	baseUrl: string;
	logFile: string;
	/** How long boot took until n8n served its REST API, its webhooks or its health check. */
	bootMs: number;
}

// Generous: a first boot also runs every database migration, and the machine may be busy.
const READY_TIMEOUT_MS = 180_000;

// Fixed so that a kept user folder stays readable across runs; the demo and tests hold no real secrets.
const ENCRYPTION_KEY = 'n8n-nodes-erp-local-demo-and-tests-key';

function environment(spec: N8nProcessSpec): NodeJS.ProcessEnv {
	const env = { ...process.env };
	// jest's variables (NODE_ENV=test) would make n8n believe it runs inside a test.
	for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('JEST_')) delete env[name];
	const ownUrl = `http://127.0.0.1:${spec.port}/`;
	return {
		...env,
		PATH: `${path.dirname(spec.install.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: spec.userFolder,
		N8N_PORT: String(spec.port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: ownUrl,
		N8N_WEBHOOK_URL: ownUrl,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_RUNNERS_BROKER_PORT: String(spec.brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		...n8nLine(spec.install.version).environment,
		...spec.environment,
	};
}

/** Whether `url` answers 200 with JSON (1.x answers "n8n is starting up" as text to any path during migrations). */
async function answersJson(url: string): Promise<boolean> {
	try {
		const response = await fetch(url);
		await response.arrayBuffer();
		return response.ok && (response.headers.get('content-type') ?? '').includes('application/json');
	} catch {
		return false;
	}
}

/**
 * Starts n8n under the install's Node in its own process group, logging to `<userFolder>/n8n.log`; resolves once
 * `start` serves its REST API (the line's readyPath: /healthz answers during migrations), the others /healthz/readiness.
 */
export async function startN8n(spec: N8nProcessSpec): Promise<N8nProcess> {
	const command = spec.command ?? 'start';
	const baseUrl = `http://127.0.0.1:${spec.port}`;
	const name = `n8n ${command} on port ${spec.port}`;
	// Otherwise a process still on the port would answer the readiness check for this one.
	if (await fetch(`${baseUrl}/healthz`).then(() => true, () => false)) throw new Error(`${name}: the port already answers; is an earlier n8n still running?`);
	mkdirSync(spec.userFolder, { recursive: true });
	const logFile = path.join(spec.userFolder, 'n8n.log');
	const started = Date.now();
	const pid = spawnGroup(spec.install.nodeBin, [spec.install.n8nBin, command], { env: environment(spec), logFile, cwd: spec.userFolder, run: spec.run });
	const readyPath = command === 'start' ? n8nLine(spec.install.version).readyPath : '/healthz/readiness';
	await untilReady(pid, () => answersJson(`${baseUrl}${readyPath}`), name, logFile, READY_TIMEOUT_MS);
	const bootMs = Date.now() - started;
	// .ci/run names a file per step, to count each step's boots and their time.
	if (process.env.N8N_ERP_BOOT_LOG) appendFileSync(process.env.N8N_ERP_BOOT_LOG, `${command}\t${spec.install.version}\t${bootMs}\n`);
	return { pid, baseUrl, logFile, bootMs };
}

/** n8n's graceful shutdown (N8N_GRACEFUL_SHUTDOWN_TIMEOUT; a worker finishes its running executions), then SIGKILL. */
export const stopN8n = (n8n: Pick<N8nProcess, 'pid'>): Promise<void> => stopGroup(n8n.pid, 20_000);

/** What a crash, the OOM killer or a lost machine does: SIGKILL to n8n and its task runners, no shutdown. */
export const killN8n = (n8n: Pick<N8nProcess, 'pid'>): Promise<void> => stopGroup(n8n.pid, 0);
