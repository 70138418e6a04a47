/**
 * The first start's figures have one source, scripts/first-start.json: npm start (scripts/start.ts) and
 * scripts/install-n8n.sh print them from it, the README and docs/development.md quote them. The README's Node
 * version is package.json's `engines`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

import firstStart from '../../../scripts/first-start.json';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

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
		const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
		const readme = /Node (\d+\.\d+) or later/.exec(read('README.md'));
		expect(`>=${readme?.[1]}`).toBe(pkg.engines.node);
	});
});
