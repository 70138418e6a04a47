/**
 * n8n's own CLI (`n8n-node`, @n8n/node-cli) on what ships, laid out as n8n's template lays out a package:
 * package.json, tsconfig.json, nodes/ and credentials/ copied to a scratch folder beside n8n's untouched default
 * eslint.config.mjs (the one `n8n-node lint` compares against in strict mode), with this checkout's node_modules.
 * In the checkout itself `n8n-node lint` refuses strict mode (its eslint.config.mjs is the project's, which also
 * lints tests and tooling) and would lint test/, sandbox/, bench/ and tooling/, none of which ships.
 *
 *   node scripts/n8n-node.mjs lint           `n8n-node lint` (strict mode) on the shipped sources
 *   node scripts/n8n-node.mjs build          `n8n-node build` there, compared file by file with dist/ (`npm run build` first)
 *   --from <dir>                             take the sources from <dir> instead of this checkout (test/repo uses it)
 * Exit 1 on a finding, a strict-mode violation (or strict mode off in package.json) or a different dist.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'node_modules', '@n8n', 'node-cli');
const DEFAULT_ESLINT_CONFIG = path.join(CLI, 'dist', 'template', 'templates', 'shared', 'default', 'eslint.config.mjs');
const SHIPPED_SOURCES = ['package.json', 'tsconfig.json', 'nodes', 'credentials'];

const [command, ...rest] = process.argv.slice(2);
const fromIndex = rest.indexOf('--from');
const from = fromIndex >= 0 ? path.resolve(rest[fromIndex + 1]) : ROOT;
if (command !== 'lint' && command !== 'build') {
	process.stderr.write('usage: node scripts/n8n-node.mjs lint|build [--from <dir>]\n');
	process.exit(2);
}

/** Every file under `dir`, relative to it, sorted. */
function filesUnder(dir, prefix = '') {
	return readdirSync(path.join(dir, prefix), { withFileTypes: true })
		.flatMap((entry) => (entry.isDirectory() ? filesUnder(dir, path.join(prefix, entry.name)) : [path.join(prefix, entry.name)]))
		.sort();
}

/** The dist/ files that differ between `ours` and `theirs`, each with why. */
function distDifferences(ours, theirs) {
	const a = new Set(filesUnder(ours));
	const b = new Set(filesUnder(theirs));
	const differences = [];
	for (const file of a) if (!b.has(file)) differences.push(`only in npm run build's dist: ${file}`);
	for (const file of b) if (!a.has(file)) differences.push(`only in n8n-node build's dist: ${file}`);
	for (const file of a) {
		if (b.has(file) && !readFileSync(path.join(ours, file)).equals(readFileSync(path.join(theirs, file)))) differences.push(`different bytes: ${file}`);
	}
	return differences;
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-n8n-node-'));
try {
	for (const entry of SHIPPED_SOURCES) cpSync(path.join(from, entry), path.join(scratch, entry), { recursive: true });
	cpSync(DEFAULT_ESLINT_CONFIG, path.join(scratch, 'eslint.config.mjs'));
	symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
	// n8n-node lint compares eslint.config.mjs with n8n's default only in strict mode.
	if (JSON.parse(readFileSync(path.join(scratch, 'package.json'), 'utf8')).n8n?.strict !== true) throw new Error('package.json has no "n8n": { "strict": true }');
	const cliVersion = JSON.parse(readFileSync(path.join(CLI, 'package.json'), 'utf8')).version;
	process.stdout.write(`n8n-node ${command} (@n8n/node-cli ${cliVersion}) on ${SHIPPED_SOURCES.join(', ')} with n8n's default eslint.config.mjs\n`);
	// Without NODE_ENV: NODE_ENV=test (jest's) switches eslint-plugin-n8n-nodes-base to rules for its own test fixtures.
	const { NODE_ENV: _ignored, ...environment } = process.env;
	const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'n8n-node'), [command], { cwd: scratch, stdio: 'inherit', env: { ...environment, CI: 'true' } });
	let status = run.status ?? 1;
	if (status === 0 && command === 'build') {
		const ours = path.join(ROOT, 'dist');
		if (!existsSync(ours)) throw new Error('dist/ is missing: run `npm run build` first');
		const differences = distDifferences(ours, path.join(scratch, 'dist'));
		for (const line of differences) process.stdout.write(`${line}\n`);
		process.stdout.write(differences.length === 0 ? `same dist: ${filesUnder(ours).length} files, byte for byte\n` : 'the two builds differ\n');
		status = differences.length === 0 ? 0 : 1;
	}
	process.exitCode = status;
} finally {
	rmSync(scratch, { recursive: true, force: true });
}
