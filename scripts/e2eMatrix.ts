/**
 * `npm run test:e2e:matrix`: the whole end-to-end suite once per tested n8n line (TESTED_N8N_VERSIONS), one
 * after the other, each installing its n8n into the cache on its first run. Every line runs even when an earlier
 * one fails; the exit code is 1 if any failed. Each full run records itself in docs/e2e-results.json.
 */
import { spawnSync } from 'node:child_process';

import { TESTED_N8N_VERSIONS } from '../tooling/host/install';
import { REPO_ROOT } from '../tooling/host/paths';

const outcomes = Object.values(TESTED_N8N_VERSIONS).map((version) => {
	process.stdout.write(`\n=== npm run test:e2e with N8N_VERSION=${version}\n`);
	const started = Date.now();
	const { status } = spawnSync('npm', ['run', 'test:e2e'], { cwd: REPO_ROOT, env: { ...process.env, N8N_VERSION: version }, stdio: 'inherit' });
	return { version, passed: status === 0, seconds: Math.round((Date.now() - started) / 1000) };
});

process.stdout.write('\n=== n8n line matrix\n');
for (const { version, passed, seconds } of outcomes) process.stdout.write(`n8n ${version}: ${passed ? 'passed' : 'FAILED'} (${seconds} s)\n`);
process.exit(outcomes.every((o) => o.passed) ? 0 : 1);
