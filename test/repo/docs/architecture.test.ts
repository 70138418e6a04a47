import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// docs/architecture.md is the map a newcomer reads first: it must name only files that exist, give every folder
// of test/ its line, and say truly which file sends POST /contacts.
const ROOT = path.join(__dirname, '../../..');
const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const named = [...doc.matchAll(/`([^`\s]+)`/g)].map(([, name]) => name);
const paths = [...new Set(named.filter((name) => /^((nodes|credentials|sandbox|test|tooling|docs|bench|scripts|examples)\/|[\w.]+\.(js|json)$)/.test(name) && !name.includes('<')))];
const folders = (dir: string) =>
	readdirSync(path.join(ROOT, dir), { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name);

describe('docs/architecture.md agrees with the code', () => {
	it('names files and folders', () => expect(paths.length).toBeGreaterThan(30));

	it.each(paths)('%s exists', (name) => expect(existsSync(path.join(ROOT, name))).toBe(true));

	it.each(folders('test'))('test/%s/ has its line in the table of where each test lives', (folder) => {
		expect(doc).toMatch(new RegExp(`^\\| \`test/${folder}/`, 'm'));
	});

	it.each(folders('nodes'))('the tests of nodes/%s/ are in test/nodes/%s/', (node) => {
		expect(folders('test/nodes')).toContain(node);
	});

	it('the file it names as sending POST /contacts sends it', () => {
		const source = readFileSync(path.join(ROOT, 'nodes/Erp/actions/contact/create.operation.ts'), 'utf8');
		expect(doc).toContain('`nodes/Erp/actions/contact/create.operation.ts` sends\n   `POST /contacts`');
		expect(source).toMatch(/method: 'POST', path: '\/contacts'/);
	});
});
