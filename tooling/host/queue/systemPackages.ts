import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export interface ServiceBinaries {
	redisServer: string;
	/** PostgreSQL's bin folder (initdb, postgres, pg_ctl, createdb, pg_isready). */
	postgresBin: string;
}

export const INSTALL_COMMAND = 'apt-get install -y redis-server postgresql';

const REDIS_SERVER = '/usr/bin/redis-server';
const POSTGRES_ROOT = '/usr/lib/postgresql';

/** Debian puts each PostgreSQL major version's programs in /usr/lib/postgresql/<major>/bin; the newest wins. */
function postgresBin(): string | undefined {
	if (!existsSync(POSTGRES_ROOT)) return undefined;
	const majors = readdirSync(POSTGRES_ROOT)
		.filter((entry) => existsSync(path.join(POSTGRES_ROOT, entry, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(POSTGRES_ROOT, majors[0], 'bin') : undefined;
}

function found(): ServiceBinaries | undefined {
	const bin = postgresBin();
	return existsSync(REDIS_SERVER) && bin ? { redisServer: REDIS_SERVER, postgresBin: bin } : undefined;
}

const isRoot = () => process.getuid?.() === 0;
const hasAptGet = () => spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

function aptGet(args: string[]): void {
	execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', ...args], {
		stdio: ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
}

/** Redis and PostgreSQL from the Debian packages: installed (once, about a minute) when missing and this runs as root with apt-get, else it fails with the command to run. */
export function ensureServiceBinaries(log: (line: string) => void): ServiceBinaries {
	const present = found();
	if (present) return present;
	if (!isRoot() || !hasAptGet()) throw new Error(`Redis and PostgreSQL are needed for queue mode and are missing: run \`sudo ${INSTALL_COMMAND}\` and try again`);
	log(`installing Redis and PostgreSQL (${INSTALL_COMMAND})…`);
	try {
		aptGet(['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql']);
	} catch {
		// A fresh machine may have no package lists yet.
		aptGet(['update']);
		aptGet(['install', '-y', '--no-install-recommends', 'redis-server', 'postgresql']);
	}
	const installed = found();
	if (!installed) throw new Error(`${INSTALL_COMMAND} ran but ${REDIS_SERVER} or ${POSTGRES_ROOT}/*/bin/initdb is still missing`);
	return installed;
}
