/**
 * `npm run verify`: n8n's verification scan (@n8n/scan-community-package), as its registry path runs it on a
 * published version, but on this checkout: the source with SOURCE_FILE_PATTERNS, and the unpacked `npm pack`
 * tarball with the compiled JavaScript and package.json. Its CLI cannot do this: it reads the package from the
 * registry and requires npm provenance. Exit 1 with the scanner's own report on any violation.
 * Run after `npm run build` (the npm script does): the tarball holds dist/.
 * ESM (.mjs) because the scanner is an ES module.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_FILE_PATTERNS = ['**/*.js', 'package.json'];
const scanner = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@n8n/scan-community-package/package.json'), 'utf8'));

function unpackedTarball(workDir) {
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }),
	);
	const packageDir = path.join(workDir, 'package');
	mkdirSync(packageDir);
	execFileSync('tar', ['-xzf', path.join(workDir, filename), '-C', packageDir, '--strip-components=1']);
	return { packageDir, filename };
}

const workDir = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-verify-'));
try {
	// The scanner makes a temporary folder as it loads and never removes it: load it with ours as TMPDIR.
	process.env.TMPDIR = workDir;
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	const { packageDir, filename } = unpackedTarball(workDir);
	const legs = [
		{ name: 'source checkout', dir: ROOT, patterns: SOURCE_FILE_PATTERNS },
		{ name: `npm pack tarball (${filename})`, dir: packageDir, patterns: TARBALL_FILE_PATTERNS },
	];
	let failed = false;
	process.stdout.write(`n8n verification scan (@n8n/scan-community-package ${scanner.version})\n`);
	for (const { name, dir, patterns } of legs) {
		const result = await analyzePackage(dir, patterns);
		// The scanner passes a leg that matched no file: for this package that is a broken pack, not a clean one.
		const passed = result.passed && result.message !== 'No files found to analyze';
		failed ||= !passed;
		process.stdout.write(`${passed ? 'passed' : 'FAILED'}  ${name}: ${patterns.join(', ')}${result.message ? ` (${result.message})` : ''}\n`);
		if (result.details) process.stdout.write(`${result.details}\n`);
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	rmSync(workDir, { recursive: true, force: true });
}
