import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

import { REPO_ROOT } from './paths';
import testedVersions from './tested-n8n.json';

export interface N8nInstall {
	version: string;
	/** The Node this n8n runs on: Node 24 when its `engines` accept it (2.x, 1.123.x), else the system Node. */
	nodeBin: string;
	/** Its version, e.g. v24.21.0. */
	nodeVersion: string;
	/** n8n's JS entry point, run with `nodeBin`. */
	n8nBin: string;
	cacheDir: string;
}

/** The tested n8n versions (current line, newest 1.x patch that installs here), named only in tested-n8n.json, which scripts/install-n8n.sh reads too; see docs/compatibility.md. */
export const TESTED_N8N_VERSIONS: { current: string; v1: string } = testedVersions;

export const N8N_VERSION = process.env.N8N_VERSION || TESTED_N8N_VERSIONS.current;

/** Where scripts/install-n8n.sh installs n8n and its Node. */
export const N8N_CACHE = process.env.N8N_ERP_CACHE || path.join(homedir(), '.cache', 'n8n-nodes-erp');

/** Whether scripts/install-n8n.sh finished installing `version` (it then only checks it, in under a second). */
export const isN8nInstalled = (version: string): boolean => existsSync(path.join(N8N_CACHE, `n8n-${version}`, '.installed'));

/** The Node scripts/install-n8n.sh chose for this version (installs from before that choice ran on Node 24). */
function nodeFor(cacheDir: string, version: string): string {
	const choice = path.join(cacheDir, `n8n-${version}`, '.node');
	return existsSync(choice) ? readFileSync(choice, 'utf8').trim() : path.join(cacheDir, 'node24', 'bin', 'node');
}

/** Runs scripts/install-n8n.sh: installs n8n and its Node into the cache the first time (minutes, progress on stderr), else checks it (under a second); prints the cache last. */
export function ensureN8nInstalled(): N8nInstall {
	const script = path.join(REPO_ROOT, 'scripts', 'install-n8n.sh');
	const result = spawnSync('bash', [script], { env: { ...process.env, N8N_VERSION }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${script} failed (exit ${result.status ?? result.signal}): see its messages above`);
	const cacheDir = result.stdout.trim().split('\n').pop() ?? '';
	const nodeBin = nodeFor(cacheDir, N8N_VERSION);
	const n8nBin = path.join(cacheDir, `n8n-${N8N_VERSION}`, 'node_modules', 'n8n', 'bin', 'n8n');
	const missing = [nodeBin, n8nBin].find((file) => !existsSync(file));
	if (missing) throw new Error(`${missing} is missing after ${script}: delete ${cacheDir} and run it again`);
	const nodeVersion = execFileSync(nodeBin, ['-v'], { encoding: 'utf8' }).trim();
	return { version: N8N_VERSION, nodeBin, nodeVersion, n8nBin, cacheDir };
}
