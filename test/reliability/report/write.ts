import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../host/paths';
import { reliabilityMarkdown } from './markdown';
import type { Results } from './results';

export const RESULTS_FILE = path.join(REPO_ROOT, 'test', 'reliability', 'results.json');
export const DOC_FILE = path.join(REPO_ROOT, 'docs', 'reliability.md');
/** Where a run of some tests only (jest -t) writes its figures: never over the full run's. */
export const PARTIAL_RESULTS_FILE = path.join(REPO_ROOT, 'test', 'reliability', 'results.partial.json');

/** Whether jest was asked to run only the tests matching a name (-t / --testNamePattern). */
export const isPartialRun = (argv = process.argv) => argv.some((arg) => arg === '-t' || arg.startsWith('--testNamePattern') || /^-t./.test(arg));

/** test/reliability/results.json (read by tooling) and docs/reliability.md (for people); a partial run writes results.partial.json only. */
export function writeReport(results: Results, partial = isPartialRun()): void {
	if (partial) {
		writeFileSync(PARTIAL_RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
		return;
	}
	writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
	writeFileSync(DOC_FILE, reliabilityMarkdown(results));
}
