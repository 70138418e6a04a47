import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { spawnGroup, stopGroup, untilReady, type Run } from '../processes';

export interface Postgres {
	port: number;
	pid: number;
	database: string;
	user: string;
	stop(): Promise<void>;
}

const DATABASE = 'n8n';
const SUPERUSER = 'n8n';

/** PostgreSQL refuses to run as root: as root, the `postgres` user of the Debian package runs it. */
function serverUser(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith('postgres:'));
	if (!line) throw new Error('no postgres user in /etc/passwd: install the postgresql package (apt-get install -y postgresql)');
	const [, , uid, gid] = line.split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

const isReady = (bin: string, port: number) =>
	spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q'], { stdio: 'ignore' }).status === 0;

/** This run's own PostgreSQL: initdb into `<run folder>/postgres`, served on 127.0.0.1:port (trust on loopback, no fsync: throwaway), database `n8n` owned by user `n8n`. */
export async function startPostgres(bin: string, run: Run, port: number): Promise<Postgres> {
	const user = serverUser();
	const dataDir = path.join(run.dir, 'postgres');
	mkdirSync(dataDir, { mode: 0o700 });
	if (user) {
		// The server's user must be able to reach its data folder inside this run's folder.
		chmodSync(run.dir, 0o711);
		chownSync(dataDir, user.uid, user.gid);
	}
	execFileSync(path.join(bin, 'initdb'), ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-locale'], { stdio: ['ignore', 'ignore', 'pipe'], ...user });
	const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dataDir}`, 'fsync=off', 'synchronous_commit=off'];
	const args = ['-D', dataDir, '-p', String(port), ...settings.flatMap((setting) => ['-c', setting])];
	const logFile = path.join(run.dir, 'postgres.log');
	const pid = spawnGroup(path.join(bin, 'postgres'), args, { run, env: process.env, logFile, user });
	// SIGTERM is PostgreSQL's "smart" shutdown: it waits for clients, and n8n is stopped before it.
	const stop = () => stopGroup(pid, 15_000);
	await untilReady(pid, () => isReady(bin, port), `PostgreSQL on port ${port}`, logFile, 30_000);
	try {
		execFileSync(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, DATABASE], { stdio: ['ignore', 'ignore', 'pipe'] });
	} catch (error) {
		await stop();
		throw error;
	}
	return { port, pid, database: DATABASE, user: SUPERUSER, stop };
}
