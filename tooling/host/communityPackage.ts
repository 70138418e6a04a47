import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ensureN8nInstalled, type N8nInstall } from './install';
import { PACKAGE_NAME, REPO_ROOT } from './paths';

type PackageJson = Record<string, unknown> & { version: string; dependencies?: Record<string, string> };

/** `npm run build` and `npm pack`: the files a user downloads (package.json `files`); N8N_ERP_PACK_FROM names another checkout to pack (the bench's "before" figures). */
function buildAndPack(): string {
	const from = process.env.N8N_ERP_PACK_FROM || REPO_ROOT;
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: from, stdio: ['ignore', 'ignore', 'inherit'] });
	const destination = mkdtempSync(path.join(os.tmpdir(), `${PACKAGE_NAME}-pack-`));
	const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: from, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	const [{ filename }] = JSON.parse(output) as Array<{ filename: string }>;
	return path.join(destination, filename);
}

/**
 * Installs the tarball into an n8n user folder the way n8n's own community-package installer does: untar into
 * `.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies from its package.json (n8n-workflow
 * then resolves from n8n's own node_modules), record it in `.n8n/nodes/package.json`.
 */
function installCommunityPackage(userFolder: string, tarball: string): void {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	rmSync(packageDir, { recursive: true, force: true });
	mkdirSync(packageDir, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);

	const manifestPath = path.join(packageDir, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJson;
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies']) delete manifest[field];
	if (Object.keys(manifest.dependencies ?? {}).length > 0) {
		// n8n would `npm install` these; this package is meant to have none (n8n Cloud verification requires it).
		throw new Error(`${PACKAGE_NAME} has runtime dependencies (${Object.keys(manifest.dependencies ?? {}).join(', ')}): install them or remove them`);
	}
	writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
	const installed = { name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: manifest.version } };
	writeFileSync(path.join(nodesDir, 'package.json'), JSON.stringify(installed, null, 2));
}

export interface PreparedPackage {
	install: N8nInstall;
	timings: Record<'installCheckMs' | 'buildMs', number>;
}

/** n8n installed (first run: minutes) and this package built, packed and installed into each user folder; N8N_ERP_TARBALL names a tarball to install instead (.ci/run packs once). */
export function preparePackage(userFolders: string[], log: (line: string) => void): PreparedPackage {
	let started = Date.now();
	const install = ensureN8nInstalled();
	const installCheckMs = Date.now() - started;
	const packed = process.env.N8N_ERP_TARBALL;
	log(packed ? `installing ${packed}…` : `building ${PACKAGE_NAME} and packing it as npm would publish it…`);
	started = Date.now();
	const tarball = packed || buildAndPack();
	for (const userFolder of userFolders) installCommunityPackage(userFolder, tarball);
	if (!packed) rmSync(path.dirname(tarball), { recursive: true, force: true });
	return { install, timings: { installCheckMs, buildMs: Date.now() - started } };
}
