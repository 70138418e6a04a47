/**
 * `npm run lint:n8n` (scripts/n8n-node.mjs: n8n's CLI in strict mode with n8n's default eslint config, on what
 * ships) fails on what n8n Cloud refuses in a shipped file and ignores the same in a test file. One run on a copy
 * of the checkout with a timer in a node, node:fs in the credential, and both in a test file.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ROOT } from './shipped';

const PLANT = "import { readFileSync } from 'node:fs';\nexport const planted = setTimeout(() => readFileSync, 1);\n";

describe('n8n-node lint on what ships', () => {
	let copy: string;
	beforeAll(() => {
		copy = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-plant-'));
		for (const entry of ['package.json', 'tsconfig.json', 'nodes', 'credentials', 'test/nodes']) {
			cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
		}
	});
	afterAll(() => rmSync(copy, { recursive: true, force: true }));

	it('reports a timer in a node and node:fs in a credential, and nothing of the same in a test file', () => {
		appendFileSync(path.join(copy, 'nodes/Erp/Erp.node.ts'), 'setTimeout(() => undefined, 1);\n');
		appendFileSync(path.join(copy, 'credentials/ErpApi.credentials.ts'), "import { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n");
		appendFileSync(path.join(copy, 'test/nodes/editorTexts.test.ts'), PLANT);

		const run = spawnSync('node', [path.join(ROOT, 'scripts/n8n-node.mjs'), 'lint', '--from', copy], { encoding: 'utf8' });
		// eslint's stylish format, without its colours: a file's path on its own line, then a line per finding.
		const findings: string[] = [];
		let file = '';
		for (const line of `${run.stdout}${run.stderr}`.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '').split('\n')) {
			const header = /\/((?:nodes|credentials|test)\/\S+\.ts)$/.exec(line.trim());
			const finding = /^\d+:\d+\s+error\s.*\s(\S+)$/.exec(line.trim());
			if (header) file = header[1];
			else if (finding) findings.push(`${file} ${finding[1]}`);
		}
		expect({ status: run.status, findings }).toEqual({
			status: 1,
			findings: ['credentials/ErpApi.credentials.ts @n8n/community-nodes/no-restricted-imports', 'nodes/Erp/Erp.node.ts @n8n/community-nodes/no-restricted-globals'],
		});
	}, 120_000);
});
