import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { classNameOf, codexFileOf, credentialFiles, iconFiles, loadCredential, loadNode, nodeFiles, pkg, ROOT, typeNameOf } from './shipped';

/**
 * The built package as n8n loads it: for each file package.json's `n8n` section names, require the file from dist/,
 * take the class named after the file (`dist/credentials/ErpApi.credentials.js` → `ErpApi`), instantiate it and
 * check what n8n reads from it. Then n8n-core's own package loader reads the whole package; `npm pack` below proves
 * the icons and codex files they name are built and shipped. `npm test` builds dist/ before it starts jest (its
 * script does, not a `pretest` hook: the project's .npmrc sets ignore-scripts, which skips pre/post hooks).
 */
function expectParameters(properties: ReadonlyArray<object>): void {
	expect(properties.length).toBeGreaterThan(0);
	for (const property of properties) {
		expect(property).toEqual(
			expect.objectContaining({ displayName: expect.any(String), name: expect.any(String), type: expect.any(String) }),
		);
		expect(property).toHaveProperty('default');
	}
}

describe('package.json', () => {
	it('names only built files in dist/, and ships dist/', () => {
		expect(pkg.files).toEqual(['dist']);
		expect(credentialFiles.length).toBeGreaterThan(0);
		expect(nodeFiles.length).toBeGreaterThan(0);
		for (const file of credentialFiles) expect(file).toMatch(/^dist\/credentials\/\w+\.credentials\.js$/);
		for (const file of nodeFiles) expect(file).toMatch(/^dist\/nodes\/\w+\/\w+\.node\.js$/);
	});

	it('has no runtime dependencies (n8n verification) and takes n8n-workflow from n8n as a peer', () => {
		expect(pkg).not.toHaveProperty('dependencies');
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	});

	it('has no "main", or one that names a shipped file', () => {
		if (pkg.main !== undefined) {
			expect(pkg.main.replace(/^\.\//, '').startsWith('dist/')).toBe(true);
			expect(existsSync(path.join(ROOT, pkg.main))).toBe(true);
		}
	});
});

describe.each(credentialFiles)('credential %s', (file) => {
	it('loads: the class named after the file, instantiated, with name, displayName, documentationUrl and properties', () => {
		const credential = loadCredential(file);
		expect(credential.constructor.name).toBe(classNameOf(file));
		expect(credential.name).toBe(typeNameOf(file));
		expect(credential.displayName).toEqual(expect.stringMatching(/\S/));
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
		expectParameters(credential.properties);
	});
});

// No node names a credential test (testedBy): the credential tests itself, with its own request.
describe('credential dist/credentials/ErpApi.credentials.js', () => {
	it('sends the token as a Bearer header and tests it by reading one contact', async () => {
		const credential = loadCredential('dist/credentials/ErpApi.credentials.js');
		expect(credential.properties.map((p) => p.name)).toEqual(['baseUrl', 'apiToken', 'webhookSecret']);
		// A function (no expression for n8n to evaluate per request) that keeps everything else of the request.
		if (typeof credential.authenticate !== 'function') throw new Error('authenticate is not a function');
		const request = { url: '/contacts', method: 'GET' as const, headers: { Accept: 'application/json' } };
		await expect(credential.authenticate({ apiToken: 'tok-123' }, request)).resolves.toEqual({
			...request,
			headers: { Accept: 'application/json', Authorization: 'Bearer tok-123' },
		});
		expect(credential.test?.request).toEqual(expect.objectContaining({ url: '/contacts', qs: { page: 1, per_page: 1 } }));
	});
});

describe.each(nodeFiles)('node %s', (file) => {
	it('loads: the class named after the file, instantiated, with name, displayName, version and properties', () => {
		const node = loadNode(file);
		const { description } = node;
		expect(node.constructor.name).toBe(classNameOf(file));
		expect(description.name).toBe(typeNameOf(file));
		expect(description.displayName).toEqual(expect.stringMatching(/\S/));
		const versions = Array.isArray(description.version) ? description.version : [description.version];
		expect(versions.length).toBeGreaterThan(0);
		for (const version of versions) expect(typeof version).toBe('number');
		expectParameters(description.properties);
		const methods = node as unknown as Record<string, unknown>;
		expect(['execute', 'webhook', 'trigger', 'poll'].filter((m) => typeof methods[m] === 'function')).not.toEqual([]);
	});

	it('has its codex (*.node.json) in dist, naming this node', () => {
		const codexFile = path.join(ROOT, codexFileOf(file));
		expect(existsSync(codexFile)).toBe(true);
		const codex = JSON.parse(readFileSync(codexFile, 'utf8')) as Record<string, unknown>;
		expect(codex.node).toBe(`${pkg.name}.${loadNode(file).description.name}`);
		expect(codex.categories).toEqual(expect.arrayContaining([expect.any(String)]));
		expect(codex.resources).toEqual(expect.objectContaining({ primaryDocumentation: [{ url: expect.any(String) }] }));
	});

	it('uses only credentials the package ships', () => {
		const shipped = credentialFiles.map((credentialFile) => loadCredential(credentialFile).name);
		for (const { name } of loadNode(file).description.credentials ?? []) expect(shipped).toContain(name);
	});
});

describe("n8n-core's package loader", () => {
	it('loads every node and credential from the package directory, with codex and icons', async () => {
		const { PackageDirectoryLoader } = await import('n8n-core');
		const loader = new PackageDirectoryLoader(ROOT);
		await loader.loadAll();
		expect(loader.packageName).toBe(pkg.name);
		expect(loader.types.nodes.map((d) => d.name).sort()).toEqual(nodeFiles.map(typeNameOf).sort());
		expect(loader.types.credentials.map((c) => c.name).sort()).toEqual(credentialFiles.map(typeNameOf).sort());
		for (const description of loader.types.nodes) {
			expect(description.codex?.categories?.length).toBeGreaterThan(0);
			expect(description.iconUrl).toEqual({
				light: expect.stringMatching(new RegExp(`^icons/${pkg.name}/dist/.+\\.svg$`)),
				dark: expect.stringMatching(new RegExp(`^icons/${pkg.name}/dist/.+\\.svg$`)),
			});
		}
	});
});

/**
 * The package as npm publishes it: `npm pack --dry-run --json` lists the files of the tarball users download from
 * n8n's Community Nodes panel. It must hold everything n8n loads (package.json's `n8n` files, the icons and codex
 * they name), README and LICENSE, and nothing else: no declarations, source maps, TypeScript sources or tests.
 * `npm test` builds dist/ first.
 */
/**
 * 0.1.0 unpacked to about 200 kB (compiled JavaScript 168 kB, README 26 kB); with the ERP Polling Trigger about
 * 254 kB (JavaScript 208 kB, README 40 kB); with the ERP Tool's texts 314 kB, and 277 kB (JavaScript 216 kB, README
 * 54 kB) once tsc stopped copying comments into dist/; with Custom API Call 306 kB (JavaScript 238 kB, README 61 kB);
 * with the ERP Trigger's Confirm With the ERP 331 kB (JavaScript 259 kB, README 65 kB). 350 kB leaves room for a
 * feature of that size, but not for what a packaging slip adds: the .d.ts and .map files tsc emitted before 0.1.0
 * were 171 kB more.
 */
const UNPACKED_SIZE_BUDGET = 350_000;

interface PackResult {
	files: Array<{ path: string; size: number }>;
	unpackedSize: number;
	entryCount: number;
}

const [packed] = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
) as PackResult[];
const shipped = new Set(packed.files.map((file) => file.path));

/** README, LICENSE and package.json at the top; compiled JavaScript, icons and codex files under dist/. */
const SHIPPABLE = /^(README\.md|LICENSE|package\.json|dist\/.+(\.js|\.svg|\.png|\.node\.json))$/;

describe('npm pack', () => {
	it('ships every file package.json tells n8n to load', () => {
		for (const file of [...nodeFiles, ...credentialFiles]) expect({ file, shipped: shipped.has(file) }).toEqual({ file, shipped: true });
	});

	it.each(nodeFiles)("ships %s's icons and codex", (file) => {
		const needed = [...iconFiles(loadNode(file).description.icon, file), codexFileOf(file)];
		expect(needed.length).toBeGreaterThan(1);
		for (const needs of needed) expect({ needs, shipped: shipped.has(needs) }).toEqual({ needs, shipped: true });
	});

	it.each(credentialFiles)("ships %s's icons", (file) => {
		const needed = iconFiles(loadCredential(file).icon, file);
		expect(needed.length).toBeGreaterThan(0);
		for (const needs of needed) expect({ needs, shipped: shipped.has(needs) }).toEqual({ needs, shipped: true });
	});

	it('ships README.md, LICENSE and package.json', () => {
		expect([...shipped].filter((file) => !file.includes('/')).sort()).toEqual(['LICENSE', 'README.md', 'package.json']);
	});

	it('ships nothing else: no .d.ts, .map, .ts sources or tests', () => {
		expect([...shipped].filter((file) => !SHIPPABLE.test(file) || /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.js$/.test(file))).toEqual([]);
	});

	it(`unpacks to at most ${UNPACKED_SIZE_BUDGET} bytes`, () => {
		expect(packed.unpackedSize).toBeGreaterThan(0);
		expect(packed.unpackedSize).toBeLessThanOrEqual(UNPACKED_SIZE_BUDGET);
	});
});
