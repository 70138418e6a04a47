/**
 * `npm run release:check -- v1.2.3`: the release workflow's gate before `npm publish`. A tag vX.Y.Z is published
 * only when package.json's version is X.Y.Z and CHANGELOG.md has a `## [X.Y.Z]` entry with something in it, so
 * no version reaches users without the notes they read before upgrading.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../tooling/host/paths';

/** What stands in the way of publishing `tag`; empty when nothing does. */
export function releaseProblems(tag: string, packageVersion: string, changelog: string): string[] {
	const version = /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag)?.[1];
	if (version === undefined) return [`the tag "${tag}" is not v<version>, e.g. v1.2.3`];
	const problems: string[] = [];
	if (packageVersion !== version) problems.push(`package.json has version ${packageVersion}, the tag ${tag} says ${version}: set "version" to ${version}`);
	const lines = changelog.split(/\r?\n/);
	const heading = lines.findIndex((line) => line.startsWith(`## [${version}]`));
	if (heading === -1) return [...problems, `CHANGELOG.md has no "## [${version}]" entry: move the Unreleased notes under it`];
	const next = lines.findIndex((line, i) => i > heading && line.startsWith('## '));
	const body = lines.slice(heading + 1, next === -1 ? undefined : next).filter((line) => line.trim() && !line.startsWith('['));
	if (body.length === 0) problems.push(`CHANGELOG.md's "## [${version}]" entry is empty: say what changed for workflows`);
	return problems;
}

if (require.main === module) {
	const tag = process.argv[2] ?? '';
	const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
	const problems = releaseProblems(tag, version, readFileSync(path.join(REPO_ROOT, 'CHANGELOG.md'), 'utf8'));
	for (const problem of problems) process.stderr.write(`release check: ${problem}\n`);
	if (problems.length === 0) process.stdout.write(`release check: ${tag} = package.json ${version}, CHANGELOG.md has its entry\n`);
	process.exit(problems.length === 0 ? 0 : 1);
}
