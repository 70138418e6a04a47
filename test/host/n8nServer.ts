import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { N8nInstall } from './install';
import { n8nLine } from './lines';
import { killGroup, sleep, stopGroup } from './processGroup';

export interface N8nServerOptions {
	install: N8nInstall;
	userFolder: string;
	port: number;
	/** The task runner broker's port: two n8n processes on one machine need different ones. */
	brokerPort: number;
}

export interface N8nServer {
	baseUrl: string;
	logFile: string;
	/** How long boot took until n8n served its REST API (the line's readyPath answered). */
	bootMs: number;
	stop(): Promise<void>;
}

// Boot takes 9–19 s on two cores; a first boot also runs every database migration.
const READY_TIMEOUT_MS = 120_000;

// Fixed so that a kept user folder stays readable across runs; the demo and tests hold no real secrets.
const ENCRYPTION_KEY = 'n8n-nodes-erp-local-demo-and-tests-key';

/** The caller's environment minus what would make n8n believe it runs inside a test (jest sets NODE_ENV=test). */
function inheritedEnvironment(): NodeJS.ProcessEnv {
	const env = { ...process.env };
	for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('JEST_')) delete env[name];
	return env;
}

function n8nEnvironment(options: N8nServerOptions): NodeJS.ProcessEnv {
	const { install, userFolder, port, brokerPort } = options;
	return {
		...inheritedEnvironment(),
		PATH: `${path.dirname(install.nodeBin)}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		...n8nLine(install.version).environment,
	};
}

function logTail(file: string, lines = 40): string {
	try {
		return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
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

async function waitForReady(baseUrl: string, readyPath: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(`n8n exited during boot (${child.exitCode ?? child.signalCode}). Last lines of ${logFile}:\n${logTail(logFile)}`);
		}
		// /healthz answers during the database migrations already; each line names what waits for its REST API.
		if (await answersJson(`${baseUrl}${readyPath}`)) return;
		await sleep(250);
	}
	throw new Error(`n8n was not ready within ${timeoutMs / 1000} s. Last lines of ${logFile}:\n${logTail(logFile)}`);
}

/**
 * Starts `n8n start` under the install's Node in its own process group (n8n plus its task runners), logging to
 * `<userFolder>/n8n.log`, and resolves once n8n is ready. `stop()` ends the whole group.
 */
export async function startN8n(options: N8nServerOptions): Promise<N8nServer> {
	mkdirSync(options.userFolder, { recursive: true });
	const logFile = path.join(options.userFolder, 'n8n.log');
	const log = openSync(logFile, 'a');
	const started = Date.now();
	const child = spawn(options.install.nodeBin, [options.install.n8nBin, 'start'], {
		cwd: options.userFolder,
		env: n8nEnvironment(options),
		stdio: ['ignore', log, log],
		detached: true,
	});
	closeSync(log);
	const pid = child.pid;
	if (pid === undefined) throw new Error(`could not start ${options.install.nodeBin}`);
	// Should the caller exit without stop(), do not leave n8n behind (first, before other exit handlers).
	const killOnExit = () => killGroup(pid);
	process.prependOnceListener('exit', killOnExit);
	const stop = async () => {
		process.removeListener('exit', killOnExit);
		// n8n's own graceful shutdown (N8N_GRACEFUL_SHUTDOWN_TIMEOUT) comes first, then SIGKILL.
		await stopGroup(pid, 15_000);
	};

	const baseUrl = `http://127.0.0.1:${options.port}`;
	try {
		await waitForReady(baseUrl, n8nLine(options.install.version).readyPath, child, logFile, READY_TIMEOUT_MS);
	} catch (error) {
		await stop();
		throw error;
	}
	return { baseUrl, logFile, bootMs: Date.now() - started, stop };
}
