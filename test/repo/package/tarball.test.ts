/**
 * The package as npm publishes it: `npm pack --dry-run --json` lists the files of the tarball users download from
 * n8n's Community Nodes panel. It must hold everything n8n loads (package.json's `n8n` files, the icons and codex
 * they name), README and LICENSE, and nothing else: no declarations, source maps, TypeScript sources or tests.
 * `npm test` builds dist/ first.
 */
import { execFileSync } from 'node:child_process';

import { codexFileOf, credentialFiles, iconFiles, loadCredential, loadNode, nodeFiles, ROOT } from './shipped';

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
		for (const needs of iconFiles(loadCredential(file).icon, file)) expect({ needs, shipped: shipped.has(needs) }).toEqual({ needs, shipped: true });
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
