import { readdirSync } from 'node:fs';
import path from 'node:path';

import lineSets from './setup/lineSets.json';
import { TESTED_N8N_VERSIONS } from '../host/install';

interface JestProject {
	displayName: string;
	testMatch: string[];
}

const e2eFiles = () => readdirSync(__dirname).filter((file) => file.endsWith('.e2e.test.ts')).sort();

/** The e2e project's testMatch as jest.config.js builds it when N8N_VERSION is `version`. */
function e2eTestMatch(version: string): string[] {
	const before = process.env.N8N_VERSION;
	process.env.N8N_VERSION = version;
	try {
		let projects: JestProject[] = [];
		jest.isolateModules(() => {
			projects = (require(path.join(__dirname, '..', '..', 'jest.config.js')) as { projects: JestProject[] }).projects;
		});
		return projects.find((p) => p.displayName === 'e2e')?.testMatch ?? [];
	} finally {
		if (before === undefined) delete process.env.N8N_VERSION;
		else process.env.N8N_VERSION = before;
	}
}

describe('e2e line sets (test/e2e/setup/lineSets.json)', () => {
	test('every e2e file is named once, with the reason it runs where it runs', () => {
		const named = [...Object.keys(lineSets.bothLines), ...Object.keys(lineSets.currentLineOnly)];
		expect([...named].sort()).toEqual(e2eFiles());
		expect(new Set(named).size).toBe(named.length);
		for (const reason of [...Object.values(lineSets.bothLines), ...Object.values(lineSets.currentLineOnly)]) expect(reason.length).toBeGreaterThan(20);
	});

	test('jest runs every e2e file on the current line, and the bothLines files on the 1.x line', () => {
		expect(e2eTestMatch(TESTED_N8N_VERSIONS.current)).toEqual(['**/*.e2e.test.ts']);
		expect(e2eTestMatch(TESTED_N8N_VERSIONS.v1)).toEqual(Object.keys(lineSets.bothLines).map((file) => `**/test/e2e/${file}`));
	});
});
