import { readFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../tooling/host/paths';
import { isPartialRun, markdownOf } from '../../tooling/host/results';
import { queueReport } from '../queue/report/markdown';
import { reliabilityReport } from '../reliability/report/markdown';
import { compatibilityTable, e2eReport, summarize, withRun, type E2eRun } from '../e2e/setup/results';

const run = (n8n: string, overrides: Partial<E2eRun> = {}): E2eRun => ({
	n8n,
	line: `${n8n.split('.')[0]}.x`,
	node: 'v24.21.0',
	date: '2026-11-23',
	tests: { passed: 54, failed: 0, total: 54 },
	roundTrips: { count: 30, minMs: 41, medianMs: 77, maxMs: 190 },
	...overrides,
});

describe('e2e results: the figures docs/e2e-results.json and docs/compatibility.md get', () => {
	test('min, median and max of the round trips, in whole ms; an even count takes the mean of the middle two', () => {
		expect(summarize([95.4, 40.2, 120.6])).toEqual({ count: 3, minMs: 40, medianMs: 95, maxMs: 121 });
		expect(summarize([10, 40, 20, 30])).toEqual({ count: 4, minMs: 10, medianMs: 25, maxMs: 40 });
		expect(() => summarize([])).toThrow('no round trips');
	});

	test('a run replaces the earlier run of the same n8n version; versions newest first, compared as numbers', () => {
		const first = withRun(undefined, run('1.123.81', { date: '2026-11-20' }));
		const both = withRun(withRun(first, run('2.41.1')), run('1.123.81'));

		expect(both.runs.map((r) => [r.n8n, r.date])).toEqual([
			['2.41.1', '2026-11-23'],
			['1.123.81', '2026-11-23'],
		]);
		expect(withRun(withRun(undefined, run('2.9.0')), run('2.41.1')).runs.map((r) => r.n8n)).toEqual(['2.41.1', '2.9.0']);
	});

	test('the table names the command, says how many failed or did not run, and says when round trips were not measured', () => {
		const skipped = run('2.9.0', { tests: { passed: 50, failed: 0, total: 54 } });
		const failed = run('1.123.81', { tests: { passed: 50, failed: 4, total: 54 }, roundTrips: null });
		const table = compatibilityTable(withRun(withRun(withRun(undefined, run('2.41.1')), skipped), failed));

		expect(table.split('\n').slice(2)).toEqual([
			'| 2.41.1 | 2.x | v24.21.0 | 2026-11-23 | `N8N_VERSION=2.41.1 npm run test:e2e` | all 54 passed | 41 / 77 / 190 ms (n=30) |',
			'| 2.9.0 | 2.x | v24.21.0 | 2026-11-23 | `N8N_VERSION=2.9.0 npm run test:e2e` | 50 of 54 passed, 4 not run | 41 / 77 / 190 ms (n=30) |',
			'| 1.123.81 | 1.x | v24.21.0 | 2026-11-23 | `N8N_VERSION=1.123.81 npm run test:e2e` | 4 of 54 FAILED | not measured |',
		]);
	});

	test('only the text between the markers is replaced; a document without them is refused', () => {
		const results = withRun(undefined, run('2.41.1'));
		const doc = '# Title\n\n<!-- e2e:results -->\nold table\n<!-- /e2e:results -->\n\nafter\n';

		expect(e2eReport.markdown(results, doc)).toBe(`# Title\n\n<!-- e2e:results -->\n${compatibilityTable(results)}\n<!-- /e2e:results -->\n\nafter\n`);
		expect(() => e2eReport.markdown(results, '# no markers')).toThrow('lacks the markers');
	});
});

describe('results documents: generated from their JSON alone (npm run docs:regenerate)', () => {
	test.each([
		[e2eReport.doc, () => markdownOf(e2eReport)],
		[reliabilityReport.doc, () => markdownOf(reliabilityReport)],
		[queueReport.doc, () => markdownOf(queueReport)],
	])('%s is what its JSON generates', (doc, generate) => {
		expect(readFileSync(path.join(REPO_ROOT, doc), 'utf8')).toBe(generate());
	});

	test('a run of the tests matching a name is partial: it never writes over a full run', () => {
		expect([['-t', 'polling'], ['-tpolling'], ['--testNamePattern=polling'], ['test/queue/suite']].map((args) => isPartialRun(['node', 'jest', ...args]))).toEqual([
			true,
			true,
			true,
			false,
		]);
	});
});
