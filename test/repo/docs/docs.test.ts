import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { REPOSITORY } from '../../../nodes/shared/docs';
import firstStart from '../../../scripts/first-start.json';
import { startTestSandbox, type TestSandbox } from '../../../tooling/harness/sandbox';
import { DEMO_SANDBOX } from '../../../tooling/host/demoWorkflows';
import { TESTED_N8N_VERSIONS } from '../../../tooling/host/install';
import { codexFileOf, credentialFiles, loadCredential, loadNode, nodeFiles, pkg, ROOT } from '../package/shipped';
import movedTo from './fixtures/readme-headings-0.1.0.json';
import { anchors, links, headings } from './markdown';

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

// docs/architecture.md is the map a newcomer reads first: it must name only files that exist, give every folder
// of test/ its line, and say truly which file sends POST /contacts.
describe('docs/architecture.md agrees with the code', () => {
	const doc = read('docs/architecture.md');
	const named = [...doc.matchAll(/`([^`\s]+)`/g)].map(([, name]) => name);
	const paths = [...new Set(named.filter((name) => /^((nodes|credentials|sandbox|test|tooling|docs|bench|scripts|examples)\/|[\w.]+\.(js|json)$)/.test(name) && !name.includes('<')))];
	const folders = (dir: string) =>
		readdirSync(path.join(ROOT, dir), { withFileTypes: true })
			.filter((entry) => entry.isDirectory())
			.map((entry) => entry.name);

	it('names files and folders', () => expect(paths.length).toBeGreaterThan(30));

	it.each(paths)('%s exists', (name) => expect(existsSync(path.join(ROOT, name))).toBe(true));

	it.each(folders('test'))('test/%s/ has its line in the table of where each test lives', (folder) => {
		expect(doc).toMatch(new RegExp(`^\\| \`test/${folder}/`, 'm'));
	});

	it.each(folders('nodes'))('the tests of nodes/%s/ are in test/nodes/%s/', (node) => {
		expect(folders('test/nodes')).toContain(node);
	});

	it('the file it names as sending POST /contacts sends it', () => {
		const source = read('nodes/Erp/actions/contact/create.operation.ts');
		expect(doc).toContain('`nodes/Erp/actions/contact/create.operation.ts` sends\n   `POST /contacts`');
		expect(source).toMatch(/method: 'POST', path: '\/contacts'/);
	});
});

// A page that names a test file as the proof of something must name one that exists (architecture.md's paths: above).
describe('the test files README.md and docs/ name', () => {
	const docs = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'architecture.md');
	const pages = ['README.md', ...docs.map((name) => `docs/${name}`)];
	const named = pages.flatMap((page) => [...read(page).matchAll(/`(test\/[^`\s]+\.ts)`/g)].map(([, file]) => [page, file]));

	it('are some', () => expect(named.length).toBeGreaterThan(20));

	it.each(named)('%s: %s exists', (_page, file) => expect(existsSync(path.join(ROOT, file))).toBe(true));
});

// docs/api-assumptions.md claims which test proves each alternative the node survives: each must exist and name
// the variant it claims in a test title.
describe('docs/api-assumptions.md: every alternative the node survives names tests that exist', () => {
	const doc = read('docs/api-assumptions.md');
	const table = doc.slice(doc.indexOf('## What the nodes survive'));
	const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| the ERP') && !line.startsWith('|---'));

	it('has rows', () => expect(rows.length).toBeGreaterThan(20));

	it.each(rows.map((row) => [row.split('|')[1].trim().slice(0, 60), row]))('%s…', (_alternative, row) => {
		const proof = row.split('|')[3];
		const files = [...proof.matchAll(/`((?:test|e2e)\/[^`]+\.test\.ts)`(?: \(([^)]+)\))?/g)];
		expect(files.length).toBeGreaterThan(0);
		for (const [, file, variants] of files) {
			expect(existsSync(path.join(ROOT, file))).toBe(true);
			const source = read(file);
			for (const variant of variants?.split(', ') ?? []) expect(source).toContain(variant);
		}
	});
});

// The tested n8n versions are named in tooling/host/tested-n8n.json; the two tables a user reads them in must name
// the same ones (moving to a new patch: docs/compatibility.md).
describe('the tested n8n versions, as the docs name them', () => {
	const tested = Object.values(TESTED_N8N_VERSIONS).sort();
	const VERSION = /\b\d+\.\d+\.\d+\b/g;

	/** The lines of a markdown section: from its heading to the next heading of any level. */
	function section(file: string, heading: string): string[] {
		const lines = read(file).split('\n');
		const start = lines.indexOf(heading);
		if (start === -1) throw new Error(`${file} has no heading "${heading}"`);
		const end = lines.findIndex((line, i) => i > start && line.startsWith('#'));
		return lines.slice(start + 1, end === -1 ? undefined : end);
	}

	const tableRows = (lines: string[]) => lines.filter((line) => line.startsWith('| ') && !line.startsWith('|---'));

	it("README's Compatibility table: one row per tested version", () => {
		const rows = tableRows(section('README.md', '## Compatibility')).slice(1);
		expect(rows.map((row) => row.split('|')[1].trim()).sort()).toEqual(tested);
	});

	it("docs/compatibility.md's Running it table names the tested versions and no other", () => {
		const named = tableRows(section('docs/compatibility.md', '## Running it')).flatMap((row) => row.match(VERSION) ?? []);
		expect([...new Set(named)].sort()).toEqual(tested);
	});
});

describe('links', () => {
	/**
	 * Every link a user can follow leads to a page and a heading of the package: the Markdown links of README.md and
	 * docs/, and the addresses the editor shows (the credential's documentationUrl, the codex files' documentation,
	 * every notice, description and hint). Editor links are built on the package's home (nodes/shared/docs.ts), which
	 * must be package.json's `repository`, `homepage` and `bugs`.
	 */
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
			for (const url of addressesIn(read(codexFileOf(file)))) found.push([codexFileOf(file), url]);
		}
		return found.filter(([, url]) => url.startsWith('https://github.com/'));
	}

	it("the package's home is package.json's repository, homepage and bugs", () => {
		const manifest = pkg as typeof pkg & { repository: { url: string }; homepage: string; bugs: { url: string } };
		expect(manifest.repository.url).toBe(`git+${REPOSITORY}.git`);
		expect(manifest.homepage).toBe(`${REPOSITORY}#readme`);
		expect(manifest.bugs.url).toBe(`${REPOSITORY}/issues`);
	});

	it.each(markdownFiles)('%s: every link leads to a file of the package and a heading of it', (file) => {
		const broken = links(path.join(ROOT, file))
			.map((link) => [link, brokenLink(file, link)])
			.filter(([, why]) => why !== undefined);
		expect(broken).toEqual([]);
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
});

describe("the README's headings", () => {
	/**
	 * Most of the README moved to pages under docs/: nothing it said may be lost. The fixture lists every
	 * heading README.md had before the move (0.1.0's README), each with the page it moved to; that page has it as a
	 * heading, at any level.
	 */
	const text = (heading: string) => heading.replace(/^#+ /, '');

	it.each(Object.entries(movedTo))("the README's heading %s is a heading of %s", (heading, page) => {
		expect(headings(path.join(ROOT, page)).map(text)).toContain(text(heading));
	});

	it('the README holds at most 250 lines', () => {
		expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250);
	});
});

describe("the demo's example question", () => {
	/**
	 * A question the docs suggest asking the demo's assistant must find someone in the demo's ERP: the contact it names
	 * is in the sandbox `npm start` seeds, and the search the assistant's Find_contacts tool sends finds that contact.
	 */
	let sandbox: TestSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox(DEMO_SANDBOX);
	});
	afterAll(() => sandbox.close());
	const page = read('docs/ai-agents-and-mcp.md').replace(/\s+/g, ' ');

	interface Contact { first_name: string; last_name: string; company: string | null }

	async function search(text: string): Promise<Contact[]> {
		const response = await fetch(`${sandbox.baseUrl}/contacts?search=${encodeURIComponent(text)}`, { headers: { authorization: `Bearer ${sandbox.token}` } });
		return ((await response.json()) as { data: Contact[] }).data;
	}

	it("names a contact of the demo's sandbox in the example question, found by name and by company", async () => {
		const [, first, last, company] = page.match(/"Create an invoice for (\S+) (\S+) of (.+?) for /) ?? [];
		expect(company).toBeDefined();
		for (const text of [last, company]) {
			expect(await search(text)).toEqual([expect.objectContaining({ first_name: first, last_name: last, company: expect.stringContaining(company) })]);
		}
	});
});

// The first start's figures have one source, scripts/first-start.json: npm start (scripts/start.ts) and
// scripts/install-n8n.sh print them from it, the README and docs/development.md quote them. The README's Node
// version is package.json's `engines`.

/** Every "first `npm start` takes about N min and M GB" a page says, as [N, M]. */
const quoted = (text: string) =>
	[...text.replace(/\s+/g, ' ').matchAll(/first `npm start` takes about ([\d.]+) min and ([\d.]+) GB/g)].map((m) => [Number(m[1]), Number(m[2])]);

describe('the first start: one source for its time and disk', () => {
	it.each(['README.md', 'docs/development.md'])('%s quotes scripts/first-start.json', (file) => {
		const text = read(file);
		expect(quoted(text)).toEqual([[firstStart.minutes, firstStart.gigabytes]]);
		// No other figure for the same thing (an older "10 minutes", "4 GB").
		expect(text.replace(/\s+/g, ' ').match(/first `npm start` takes[^.]*/g)).toHaveLength(1);
	});

	it('npm start and scripts/install-n8n.sh print it from that file', () => {
		expect(read('scripts/start.ts')).toContain("import firstStart from './first-start.json';");
		expect(read('scripts/start.ts')).toMatch(/\$\{firstStart\.minutes\} min and \$\{firstStart\.gigabytes\} GB/);
		expect(read('scripts/install-n8n.sh')).toContain('first-start.json');
	});

	it("the README's Node is package.json's engines", () => {
		const readme = /Node (\d+\.\d+) or later/.exec(read('README.md'));
		expect(`>=${readme?.[1]}`).toBe((pkg as typeof pkg & { engines: { node: string } }).engines.node);
	});
});
