import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { releaseProblems } from '../../../scripts/releaseCheck';

const ROOT = path.resolve(__dirname, '../../..');

const CHANGELOG = `# Changelog

## [Unreleased]

### Added

- Something new.

## [1.2.0] - 2026-12-01

### Changed

- Get Many returns 100 records by default.

## [1.1.0] - 2026-11-30

[Unreleased]: https://example.com/compare/v1.2.0...HEAD
[1.2.0]: https://example.com/releases/tag/v1.2.0
[1.1.0]: https://example.com/releases/tag/v1.1.0
`;

const NO_ENTRY = 'CHANGELOG.md has no "## [1.2.0]" entry: move the Unreleased notes under it';
const BETA = CHANGELOG.replace('## [1.2.0]', '## [1.2.0-beta.1]');

describe('releaseProblems: whether a tag may be published', () => {
	it.each([
		['lets a tag through when package.json has its version and CHANGELOG.md its entry', 'v1.2.0', '1.2.0', CHANGELOG, []],
		['refuses a version without its entry (the notes still under Unreleased)', 'v1.3.0', '1.3.0', CHANGELOG, [NO_ENTRY.replace('1.2.0', '1.3.0')]],
		['refuses an entry with nothing in it (link definitions do not count)', 'v1.1.0', '1.1.0', CHANGELOG, ['CHANGELOG.md\'s "## [1.1.0]" entry is empty: say what changed for workflows']],
		['refuses a tag package.json does not have as its version', 'v1.2.0', '1.1.0', CHANGELOG, ['package.json has version 1.1.0, the tag v1.2.0 says 1.2.0: set "version" to 1.2.0']],
		['refuses a tag without the v', '1.2.0', '1.2.0', CHANGELOG, ['the tag "1.2.0" is not v<version>, e.g. v1.2.3']],
		['refuses a tag without a patch', 'v1.2', '1.2.0', CHANGELOG, ['the tag "v1.2" is not v<version>, e.g. v1.2.3']],
		["does not take another version's entry for the one tagged (1.2.0-beta.1 is not 1.2.0)", 'v1.2.0', '1.2.0', BETA, [NO_ENTRY]],
		['finds a pre-release entry for its own tag', 'v1.2.0-beta.1', '1.2.0-beta.1', BETA, []],
	])('%s', (_case, tag, version, changelog, problems) => {
		expect(releaseProblems(tag, version, changelog)).toEqual(problems);
	});
});

describe('npm run release:check on this repository', () => {
	const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

	const script = path.join(ROOT, '.build/scripts/releaseCheck.js');
	/** The compiled script, as the release workflow runs it (`npm test` compiles it first). */
	const check = (tag: string) => {
		if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build:tools (npm test runs it first)`);
		return spawnSync(process.execPath, [script, tag], { cwd: ROOT, encoding: 'utf8' });
	};

	it(`passes for v${version}, the version package.json has: CHANGELOG.md has its entry`, () => {
		const result = check(`v${version}`);
		expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
	});

	it('exits 1 and says why for a version CHANGELOG.md has no entry for', () => {
		const result = check('v99.0.0');
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('CHANGELOG.md has no "## [99.0.0]" entry');
	});
});
