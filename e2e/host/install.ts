import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from './paths';

export interface N8nInstall {
	version: string;
	/** Node 24: n8n 2.x refuses older versions. */
	nodeBin: string;
	/** n8n's JS entry point, run with `nodeBin`. */
	n8nBin: string;
	cacheDir: string;
}

export const N8N_VERSION = process.env.N8N_VERSION ?? '2.41.1';

/**
 * Runs scripts/install-n8n.sh, which installs Node 24 and n8n into the cache on the first run (minutes, with
 * progress on stderr) and only checks the cache afterwards (under a second). Its last stdout line is the cache.
 */
export function ensureN8nInstalled(): N8nInstall {
	const script = path.join(REPO_ROOT, 'scripts', 'install-n8n.sh');
	const result = spawnSync('bash', [script], {
		env: { ...process.env, N8N_VERSION },
		stdio: ['ignore', 'pipe', 'inherit'],
		encoding: 'utf8',
	});
	if (result.status !== 0) {
		throw new Error(`${script} failed (exit ${result.status ?? result.signal}): see its messages above`);
	}
	const cacheDir = result.stdout.trim().split('\n').pop() ?? '';
	const install: N8nInstall = {
		version: N8N_VERSION,
		nodeBin: path.join(cacheDir, 'node24', 'bin', 'node'),
		n8nBin: path.join(cacheDir, `n8n-${N8N_VERSION}`, 'node_modules', 'n8n', 'bin', 'n8n'),
		cacheDir,
	};
	for (const file of [install.nodeBin, install.n8nBin]) {
		if (!existsSync(file)) throw new Error(`${file} is missing after ${script}: delete ${cacheDir} and run it again`);
	}
	return install;
}
