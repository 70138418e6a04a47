import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { REPO_ROOT } from '../../host/paths';
import { queueMarkdown } from './markdown';
import type { QueueResults } from './results';

export const RESULTS_FILE = path.join(REPO_ROOT, 'test', 'queue', 'results.json');
export const DOC_FILE = path.join(REPO_ROOT, 'docs', 'queue-mode.md');

/** test/queue/results.json (every figure) and docs/queue-mode.md (for people). */
export function writeQueueReport(results: QueueResults): void {
	writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
	writeFileSync(DOC_FILE, queueMarkdown(results));
}
