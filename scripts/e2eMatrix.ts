/**
 * `npm run test:e2e:matrix`: the whole end-to-end suite on each tested n8n line (TESTED_N8N_VERSIONS) at the same
 * time, each with its own sandbox, n8n and ports (the n8n installs, on a first run, one after the other). The
 * package is built and packed once for both (N8N_ERP_TARBALL, unless given). Each line's output lines start with
 * its version. Every line runs even when the other fails; the exit code is 1 if any failed. Each full run records
 * itself in docs/e2e-results.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { TESTED_N8N_VERSIONS } from '../test/host/install';
import { REPO_ROOT } from '../test/host/paths';

function packOnce(): { tarball: string; remove: () => void } {
	const given = process.env.N8N_ERP_TARBALL;
	if (given) return { tarball: given, remove: () => undefined };
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
	const folder = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-matrix-'));
	const [{ filename }] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', folder], { cwd: REPO_ROOT, encoding: 'utf8' })) as Array<{ filename: string }>;
	return { tarball: path.join(folder, filename), remove: () => rmSync(folder, { recursive: true, force: true }) };
}

function runLine(version: string, tarball: string): Promise<{ version: string; passed: boolean; seconds: number }> {
	const started = Date.now();
	const child = spawn('npm', ['run', 'test:e2e'], { cwd: REPO_ROOT, env: { ...process.env, N8N_VERSION: version, N8N_ERP_TARBALL: tarball } });
	for (const [stream, out] of [
		[child.stdout, process.stdout],
		[child.stderr, process.stderr],
	] as const) {
		createInterface({ input: stream }).on('line', (line) => out.write(`[${version}] ${line}\n`));
	}
	return new Promise((resolve) => child.on('close', (status) => resolve({ version, passed: status === 0, seconds: Math.round((Date.now() - started) / 1000) })));
}

async function main() {
	const versions = Object.values(TESTED_N8N_VERSIONS);
	// One install at a time (the versions share the cache's Node); under a second each once installed.
	for (const version of versions) execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'install-n8n.sh')], { env: { ...process.env, N8N_VERSION: version }, stdio: ['ignore', 'ignore', 'inherit'] });
	const { tarball, remove } = packOnce();
	try {
		const outcomes = await Promise.all(versions.map((version) => runLine(version, tarball)));
		process.stdout.write('\n=== n8n line matrix\n');
		for (const { version, passed, seconds } of outcomes) process.stdout.write(`n8n ${version}: ${passed ? 'passed' : 'FAILED'} (${seconds} s)\n`);
		process.exitCode = outcomes.every((o) => o.passed) ? 0 : 1;
	} finally {
		remove();
	}
}

void main();
