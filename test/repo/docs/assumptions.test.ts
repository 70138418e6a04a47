import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/api-assumptions.md claims which test proves each alternative the node survives: each must exist and name
// the variant it claims in a test title.
const ROOT = path.join(__dirname, '../../..');
const doc = readFileSync(path.join(ROOT, 'docs/api-assumptions.md'), 'utf8');
const table = doc.slice(doc.indexOf('## What the nodes survive'));
const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| the ERP') && !line.startsWith('|---'));

describe('docs/api-assumptions.md: every alternative the node survives names tests that exist', () => {
	it('has rows', () => expect(rows.length).toBeGreaterThan(20));

	it.each(rows.map((row) => [row.split('|')[1].trim().slice(0, 60), row]))('%s…', (_alternative, row) => {
		const proof = row.split('|')[3];
		const files = [...proof.matchAll(/`((?:test|e2e)\/[^`]+\.test\.ts)`(?: \(([^)]+)\))?/g)];
		expect(files.length).toBeGreaterThan(0);
		for (const [, file, variants] of files) {
			expect(existsSync(path.join(ROOT, file))).toBe(true);
			const source = readFileSync(path.join(ROOT, file), 'utf8');
			for (const variant of variants?.split(', ') ?? []) expect(source).toContain(variant);
		}
	});
});
