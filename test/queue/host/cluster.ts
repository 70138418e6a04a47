import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { buildPackage, installCommunityPackage, packPackage } from '../../host/communityPackage';
import { ensureN8nInstalled } from '../../host/install';
import { freePort } from '../../host/ports';
import { N8nClient, type Owner } from '../../host/restClient';
import type { Credential } from '../../host/types';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/server';
import { startQueueProcess, type ClusterSettings, type QueueProcess, type QueueProcessSpec, type Role } from './n8nQueueProcess';
import { killOwned, ownedProcesses, stopOwned, type OwnedProcess, type OwnedRun } from './ownedProcesses';
import { startPostgres, type Postgres } from './postgres';
import { startRedis, type Redis } from './redis';
import { ensureServiceBinaries } from './systemPackages';

export interface ClusterOptions {
	owner: Owner;
	sandbox: SandboxOptions;
	/** Bull's lock timings; n8n's defaults are 60 s, 10 s and 30 s. */
	lock: ClusterSettings['lock'];
	log: (line: string) => void;
}

export interface ClusterTimings {
	installCheckMs: number;
	buildMs: number;
	servicesMs: number;
	/** Each n8n process's boot, to /healthz/readiness. */
	bootMs: Record<string, number>;
	/** From the first process started to the last one ready. */
	n8nMs: number;
}

export interface Cluster {
	run: OwnedRun;
	sandbox: Sandbox;
	redis: Redis;
	postgres: Postgres;
	processes: QueueProcess[];
	/** The main process's API, logged in as the owner, with an API key. */
	client: N8nClient;
	apiKey: string;
	credential: Credential;
	timings: ClusterTimings;
	/** Stops everything of this run; answers the processes and ports still there afterwards (none expected). */
	stop(): Promise<{ processes: OwnedProcess[]; ports: number[] }>;
}

/** The n8n processes of the cluster: main first (it runs the migrations), then the others together. */
const LAYOUT: Array<{ name: string; role: Role }> = [
	{ name: 'main', role: 'main' },
	{ name: 'worker-1', role: 'worker' },
	{ name: 'worker-2', role: 'worker' },
	{ name: 'webhook', role: 'webhook' },
];

const portTaken = (port: number) =>
	new Promise<boolean>((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(true));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
	});

/**
 * n8n in queue mode as this run's own processes in a temporary folder: Redis, PostgreSQL, the sandbox ERP,
 * n8n main, two workers and a webhook processor, each n8n process with the package installed in its own user
 * folder as n8n installs community packages. Whatever has started is stopped again when a step fails, and on
 * process exit (Ctrl-C included, through the handlers globalSetup installs).
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
	const { log } = options;
	const run = { id: randomBytes(6).toString('hex'), dir: mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-queue-')) };
	const keepRunDir = Boolean(process.env.N8N_ERP_QUEUE_KEEP);
	const cleanUpOnExit = () => {
		killOwned(run);
		if (!keepRunDir) rmSync(run.dir, { recursive: true, force: true });
	};
	process.once('exit', cleanUpOnExit);

	let started = Date.now();
	const binaries = ensureServiceBinaries(log);
	const install = ensureN8nInstalled();
	const installCheckMs = Date.now() - started;

	log('building the package and packing it as npm would publish it…');
	started = Date.now();
	buildPackage();
	const tarball = packPackage();
	const buildMs = Date.now() - started;

	const ports: number[] = [];
	const port = async () => {
		const free = await freePort();
		ports.push(free);
		return free;
	};
	let sandbox: Sandbox | undefined;
	let services: { redis?: Redis; postgres?: Postgres } = {};
	const stop = async () => {
		const servicePids = [services.redis?.pid, services.postgres?.pid].filter((pid): pid is number => pid !== undefined);
		// n8n first (its graceful shutdown needs the database and Redis), then the ERP and the services.
		await stopOwned(run, 25_000, servicePids);
		await sandbox?.close();
		await Promise.all([services.redis?.stop(), services.postgres?.stop()]);
		await stopOwned(run, 5000);
		const left = { processes: ownedProcesses(run), ports: [] as number[] };
		for (const used of ports) if (await portTaken(used)) left.ports.push(used);
		process.removeListener('exit', cleanUpOnExit);
		cleanUpOnExit();
		return left;
	};

	try {
		started = Date.now();
		const [redis, postgres] = await Promise.all([
			port().then((p) => startRedis(binaries.redisServer, run, p)),
			port().then((p) => startPostgres(binaries.postgresBin, run, p)),
		]);
		services = { redis, postgres };
		const servicesMs = Date.now() - started;
		log(`Redis on ${redis.port}, PostgreSQL on ${postgres.port} (${servicesMs} ms); run folder ${run.dir}`);

		sandbox = await startSandbox(options.sandbox);
		const specPorts = await Promise.all(LAYOUT.map(async () => ({ port: await port(), brokerPort: await port() })));
		const portOf = (name: string) => specPorts[LAYOUT.findIndex((entry) => entry.name === name)].port;
		const cluster: ClusterSettings = {
			run,
			nodeBin: install.nodeBin,
			n8nBin: install.n8nBin,
			encryptionKey: randomBytes(24).toString('hex'),
			postgres: { port: postgres.port, database: postgres.database, user: postgres.user },
			redisPort: redis.port,
			webhookUrl: `http://127.0.0.1:${portOf('webhook')}/`,
			editorUrl: `http://127.0.0.1:${portOf('main')}/`,
			lock: options.lock,
		};
		const specs: QueueProcessSpec[] = LAYOUT.map((entry, i) => {
			const userFolder = path.join(run.dir, entry.name);
			installCommunityPackage(userFolder, tarball);
			return { ...entry, userFolder, ...specPorts[i], cluster };
		});
		rmSync(path.dirname(tarball), { recursive: true, force: true });

		log(`starting n8n ${install.version} main, then two workers and a webhook processor…`);
		started = Date.now();
		const main = await startQueueProcess(specs[0]);
		const processes = [main, ...(await Promise.all(specs.slice(1).map(startQueueProcess)))];
		const n8nMs = Date.now() - started;
		const bootMs = Object.fromEntries(processes.map((p) => [p.spec.name, p.bootMs]));
		log(`n8n cluster ready in ${(n8nMs / 1000).toFixed(1)} s (${JSON.stringify(bootMs)})`);

		const client = new N8nClient(main.baseUrl);
		await client.setupOwner(options.owner);
		const apiKey = await client.createApiKey(`queue ${run.id}`);
		const credential = await client.createCredential('ERP API', 'erpApi', { baseUrl: sandbox.baseUrl, apiToken: sandbox.token });
		const timings = { installCheckMs, buildMs, servicesMs, bootMs, n8nMs };
		return { run, sandbox, redis, postgres, processes, client, apiKey, credential, timings, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
