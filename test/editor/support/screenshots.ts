import path from 'node:path';

import { REPO_ROOT } from '../../../tooling/host/paths';

/** Where the suite leaves its screenshots (gitignored): one per failed test, and the node panel's pictures. */
export const SCREENSHOTS_DIR = path.join(REPO_ROOT, 'test', 'editor', 'screenshots');

/** A file in SCREENSHOTS_DIR named after `title` (a test's full name), readable in a file list. */
export const screenshotFile = (title: string): string =>
	path.join(SCREENSHOTS_DIR, `${title.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '').slice(0, 150)}.png`);
