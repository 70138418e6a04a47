import { readFileSync } from 'node:fs';
import path from 'node:path';

import { e2eReport } from '../e2e/setup/results';
import { queueReport } from '../queue/report/markdown';
import { reliabilityReport } from '../reliability/report/markdown';
import { REPO_ROOT } from './paths';
import { isPartialRun, markdownOf } from './results';

describe('results documents: generated from their JSON alone (npm run build:tools && node .build/scripts/regenerateDocs.js)', () => {
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
