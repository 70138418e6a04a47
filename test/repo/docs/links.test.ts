/**
 * Every link a user can follow leads to a page and a heading of the package: the Markdown links of README.md and
 * docs/, and the addresses the editor shows (the credential's documentationUrl, the codex files' documentation,
 * every notice, description and hint). Editor links are built on the package's home (nodes/shared/docs.ts), which
 * must be package.json's `repository`, `homepage` and `bugs`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { REPOSITORY } from '../../../nodes/shared/docs';
import { codexFileOf, credentialFiles, loadCredential, loadNode, nodeFiles, pkg, ROOT } from '../package/shipped';
import { anchors, links } from './markdown';

const markdownFiles = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** Why a target (a path from the package root, maybe with an anchor) does not resolve; nothing when it does. */
function brokenTarget(target: string): string | undefined {
	const [file, anchor] = target.split('#');
	const absolute = path.join(ROOT, decodeURIComponent(file));
	if (!existsSync(absolute)) return `no file ${file}`;
	if (anchor === undefined) return undefined;
	if (!file.endsWith('.md') || statSync(absolute).isDirectory()) return `#${anchor} in ${file}, which is not a Markdown page`;
	return anchors(absolute).has(anchor) ? undefined : `no heading #${anchor} in ${file}`;
}

/** An address on the package's home as a path from the package root; undefined for the issues page. */
function homeTarget(url: string): string | undefined {
	if (url === `${REPOSITORY}/issues`) return undefined;
	if (url.startsWith(`${REPOSITORY}#`)) return `README.md${url.slice(REPOSITORY.length)}`;
	if (url.startsWith(`${REPOSITORY}/blob/main/`)) return url.slice(`${REPOSITORY}/blob/main/`.length);
	return `an address on the home that is neither a file nor the issues: ${url}`;
}

/** Why a link written in `file` does not resolve. */
function brokenLink(file: string, link: string): string | undefined {
	if (link.startsWith(REPOSITORY)) {
		const target = homeTarget(link);
		return target === undefined ? undefined : brokenTarget(target);
	}
	if (/^[a-z]+:/i.test(link)) return undefined;
	const target = link.startsWith('#') ? `${file}${link}` : path.posix.join(path.posix.dirname(file), link);
	return brokenTarget(target);
}

/** Every string in a value, at any depth (a node's description, its versions' descriptions). */
function strings(value: unknown, seen = new Set<unknown>()): string[] {
	if (typeof value === 'string') return [value];
	if (value === null || typeof value !== 'object' || seen.has(value)) return [];
	seen.add(value);
	return Object.values(value).flatMap((child) => strings(child, seen));
}

const addressesIn = (text: string): string[] => [...text.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((match) => match[0].replace(/[.,;:]$/, ''));

/** The package's own addresses the editor shows, with where each is from. */
function editorLinks(): Array<[string, string]> {
	const found: Array<[string, string]> = [];
	for (const file of credentialFiles) found.push([file, loadCredential(file).documentationUrl as string]);
	for (const file of nodeFiles) {
		for (const url of strings(loadNode(file)).flatMap(addressesIn)) found.push([file, url]);
		for (const url of addressesIn(readFileSync(path.join(ROOT, codexFileOf(file)), 'utf8'))) found.push([codexFileOf(file), url]);
	}
	return found.filter(([, url]) => url.startsWith('https://github.com/'));
}

describe("the package's home", () => {
	const manifest = pkg as typeof pkg & { repository: { url: string }; homepage: string; bugs: { url: string } };

	it("is package.json's repository, homepage and bugs", () => {
		expect(manifest.repository.url).toBe(`git+${REPOSITORY}.git`);
		expect(manifest.homepage).toBe(`${REPOSITORY}#readme`);
		expect(manifest.bugs.url).toBe(`${REPOSITORY}/issues`);
	});
});

describe('links in README.md and docs/', () => {
	it.each(markdownFiles)('%s: every link leads to a file of the package and a heading of it', (file) => {
		const broken = links(path.join(ROOT, file))
			.map((link) => [link, brokenLink(file, link)])
			.filter(([, why]) => why !== undefined);
		expect(broken).toEqual([]);
	});
});

describe('links in the editor', () => {
	const found = editorLinks();

	it("are on the package's home, and there are some: the credential's, each codex's, the notices'", () => {
		expect(found.length).toBeGreaterThanOrEqual(credentialFiles.length + 2 * nodeFiles.length + 1);
		expect(found.filter(([, url]) => !url.startsWith(`${REPOSITORY}#`) && !url.startsWith(`${REPOSITORY}/`))).toEqual([]);
	});

	it('each leads to a page of the package and a heading of it', () => {
		const broken = found.map(([from, url]) => [from, url, brokenLink('README.md', url)]).filter(([, , why]) => why !== undefined);
		expect(broken).toEqual([]);
	});
});
