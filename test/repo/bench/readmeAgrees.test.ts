import { readFileSync } from 'node:fs';
import path from 'node:path';

import { readmeBlocks } from '../../../bench/readme';
import type { Summary } from '../../../bench/summary';

const root = path.join(__dirname, '..', '..', '..');
const summary = JSON.parse(readFileSync(path.join(root, 'bench', 'summary.json'), 'utf8')) as Summary;

describe('the published speed figures', () => {
	it.each(readmeBlocks(summary).map((block) => [block.file, block] as const))(
		'%s holds exactly what bench/summary.json gives (npm run bench -- --readme-only writes it again)',
		(file, { markers, body }) => {
			expect(readFileSync(path.join(root, file), 'utf8')).toContain(`${markers.start}\n${body}\n${markers.end}`);
		},
	);
});
