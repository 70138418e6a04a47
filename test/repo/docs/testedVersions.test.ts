import { readFileSync } from 'node:fs';
import path from 'node:path';

import { TESTED_N8N_VERSIONS } from '../../../tooling/host/install';

// The tested n8n versions are named in tooling/host/tested-n8n.json; the two tables a user reads them in must name
// the same ones (moving to a new patch: docs/compatibility.md).
const ROOT = path.join(__dirname, '../../..');
const tested = Object.values(TESTED_N8N_VERSIONS).sort();
const VERSION = /\b\d+\.\d+\.\d+\b/g;

/** The lines of a markdown section: from its heading to the next heading of any level. */
function section(file: string, heading: string): string[] {
	const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
	const start = lines.indexOf(heading);
	if (start === -1) throw new Error(`${file} has no heading "${heading}"`);
	const end = lines.findIndex((line, i) => i > start && line.startsWith('#'));
	return lines.slice(start + 1, end === -1 ? undefined : end);
}

const tableRows = (lines: string[]) => lines.filter((line) => line.startsWith('| ') && !line.startsWith('|---'));

describe('the tested n8n versions, as the docs name them', () => {
	it("README's Compatibility table: one row per tested version", () => {
		const rows = tableRows(section('README.md', '## Compatibility')).slice(1);
		expect(rows.map((row) => row.split('|')[1].trim()).sort()).toEqual(tested);
	});

	it("docs/compatibility.md's Running it table names the tested versions and no other", () => {
		const named = tableRows(section('docs/compatibility.md', '## Running it')).flatMap((row) => row.match(VERSION) ?? []);
		expect([...new Set(named)].sort()).toEqual(tested);
	});
});
