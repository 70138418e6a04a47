import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../e2e/host/paths';
import { reliabilityMarkdown } from './markdown';
import type { Results } from './results';

export const RESULTS_FILE = path.join(REPO_ROOT, 'reliability', 'results.json');
export const DOC_FILE = path.join(REPO_ROOT, 'docs', 'reliability.md');

/** reliability/results.json (read by tooling) and docs/reliability.md (for people). */
export function writeReport(results: Results): void {
	writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
	writeFileSync(DOC_FILE, reliabilityMarkdown(results));
}
