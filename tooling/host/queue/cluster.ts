import path from 'node:path';

import { preparePackage, type PreparedPackage } from '../communityPackage';
import { freePort, portIsFree } from '../ports';
import { removeFolder, runProcesses, startRun, stopRun, type Run } from '../processes';
import { N8nClient, type Owner } from '../restClient';
import { erpCredential } from '../stack';
import type { Credential } from '../types';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox/server';
import { startQueueProcess, type ClusterSettings, type QueueProcess, type Role } from './n8nQueueProcess';
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

export type ClusterTimings = PreparedPackage['timings'] & {
	servicesMs: number;
	/** Each n8n process's boot, to its readiness. */
	bootMs: Record<string, number>;
	/** From the first process started to the last one ready. */
	n8nMs: number;
};

export interface Cluster {
	run: Run;
	sandbox: Sandbox;
	redis: Redis;
	postgres: Postgres;
	processes: QueueProcess[];
	/** The main process's API, logged in as the owner, with an API key. */
	client: N8nClient;
	apiKey: string;
	credential: Credential;
	timings: ClusterTimings;
	/** Stops everything of this run; throws when any of its processes or ports is still there afterwards. */
	stop(): Promise<void>;
}

/** The n8n processes of the cluster: main first (it runs the migrations), then the others together. */
const LAYOUT: Array<{ name: string; role: Role }> = [
	{ name: 'main', role: 'main' },
	{ name: 'worker-1', role: 'worker' },
	{ name: 'worker-2', role: 'worker' },
	{ name: 'webhook', role: 'webhook' },
];

/**
 * n8n in queue mode, as this run's own processes in a temporary folder: Redis, PostgreSQL, the sandbox ERP, n8n main,
 * two workers and a webhook processor, each n8n with the package installed in its own user folder. What has started
 * is stopped again when a step fails, and killed if this process exits before stop().
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
	const { log } = options;
	const keepRunDir = Boolean(process.env.N8N_ERP_QUEUE_KEEP);
	const run = startRun('queue', keepRunDir);

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
		await stopRun(run, 25_000, servicePids);
		await sandbox?.close();
		await Promise.all([services.redis?.stop(), services.postgres?.stop()]);
		await stopRun(run, 5000);
		const processes = runProcesses(run).map((p) => `${p.pid} ${p.command}`);
		const taken: number[] = [];
		for (const used of ports) if (!(await portIsFree(used))) taken.push(used);
		if (!keepRunDir) removeFolder(run.dir);
		if (processes.length > 0 || taken.length > 0) throw new Error(`left behind after stopping: processes [${processes.join('; ')}], ports [${taken.join(', ')}]`);
		log(`stopped: no process of run ${run.id} and none of its ports left`);
	};

	try {
		const binaries = ensureServiceBinaries(log);
		const userFolders = LAYOUT.map((entry) => path.join(run.dir, entry.name));
		const { install, timings } = preparePackage(userFolders, log);
		let started = Date.now();
		const [redis, postgres] = await Promise.all([
			port().then((p) => startRedis(binaries.redisServer, run, p)),
			port().then((p) => startPostgres(binaries.postgresBin, run, p)),
		]);
		services = { redis, postgres };
		const servicesMs = Date.now() - started;
		log(`Redis on ${redis.port}, PostgreSQL on ${postgres.port} (${servicesMs} ms); run folder ${run.dir}`);

		sandbox = await startSandbox(options.sandbox);
		const specPorts = await Promise.all(LAYOUT.map(async () => ({ port: await port(), brokerPort: await port() })));
		const urlOf = (name: string) => `http://127.0.0.1:${specPorts[LAYOUT.findIndex((entry) => entry.name === name)].port}/`;
		const cluster: ClusterSettings = {
			run,
			install,
			postgres: { port: postgres.port, database: postgres.database, user: postgres.user },
			redisPort: redis.port,
			webhookUrl: urlOf('webhook'),
			editorUrl: urlOf('main'),
			lock: options.lock,
		};
		const specs = LAYOUT.map((entry, i) => ({ ...entry, userFolder: userFolders[i], ...specPorts[i], cluster }));

		log(`starting n8n ${install.version} main, then two workers and a webhook processor…`);
		started = Date.now();
		const main = await startQueueProcess(specs[0]);
		const processes = [main, ...(await Promise.all(specs.slice(1).map(startQueueProcess)))];
		const n8nMs = Date.now() - started;
		const bootMs = Object.fromEntries(processes.map((p) => [p.spec.name, p.bootMs]));
		log(`n8n cluster ready in ${(n8nMs / 1000).toFixed(1)} s (${JSON.stringify(bootMs)})`);

		const client = new N8nClient(main.baseUrl);
		await client.signIn(options.owner);
		const apiKey = await client.createApiKey(`queue ${run.id}`);
		const credential = await erpCredential(client, sandbox);
		return { run, sandbox, redis, postgres, processes, client, apiKey, credential, timings: { ...timings, servicesMs, bootMs, n8nMs }, stop };
	} catch (error) {
		await stop().catch((left: Error) => log(left.message));
		throw error;
	}
}
