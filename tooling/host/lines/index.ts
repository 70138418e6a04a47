import { TESTED_N8N_VERSIONS } from '../install';
import { line1 } from './line1';
import { line2 } from './line2';
import type { N8nLine } from './types';

export type { N8nLine } from './types';

const LINES: Record<string, N8nLine> = { '1': line1, '2': line2 };

/** The line an n8n version belongs to, by its major version. */
export function n8nLine(version: string): N8nLine {
	const line = LINES[version.split('.')[0]];
	if (!line) throw new Error(`n8n ${version} is of no line this project knows (1.x, 2.x): set N8N_VERSION to one of ${Object.values(TESTED_N8N_VERSIONS).join(', ')}`);
	return line;
}
