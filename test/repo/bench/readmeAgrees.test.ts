import { readFileSync } from 'node:fs';
import path from 'node:path';

import { readmeBlocks } from '../../../bench/readme';
import type { Results } from '../../../bench/results';

const root = path.join(__dirname, '..', '..', '..');
const results = JSON.parse(readFileSync(path.join(root, 'bench', 'results.json'), 'utf8')) as Results;

describe('the published speed figures', () => {
	it.each(readmeBlocks(results).map((block) => [block.file, block] as const))(
		'%s holds exactly what bench/results.json gives (npm run bench -- --readme-only writes it again)',
		(file, { markers, body }) => {
			expect(readFileSync(path.join(root, file), 'utf8')).toContain(`${markers.start}\n${body}\n${markers.end}`);
		},
	);
});
