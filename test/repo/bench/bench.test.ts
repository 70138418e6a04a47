import { readFileSync } from 'node:fs';
import path from 'node:path';

import { peakInFlight } from '../../../bench/inFlight';
import { categorise, categoriseBy, functionsOf, NODE_PACKAGE, REMOTE_CATEGORIES, type CpuProfile } from '../../../bench/profile/categories';
import { readmeBlocks } from '../../../bench/readme';
import type { Summary } from '../../../bench/summary';

describe('bench: requests in flight at once, from the sandbox log', () => {
	test('requests that follow each other after a full answer time never overlap', () => {
		expect(peakInFlight([0, 100, 200, 300], 100)).toBe(1);
	});

	test('a batch that arrives together is in flight together', () => {
		expect(peakInFlight([0, 1, 2, 3, 4, 150, 151], 100)).toBe(5);
	});

	test('requests still answering when later ones arrive count with them, in any order', () => {
		expect(peakInFlight([90, 0, 50, 140, 30], 100)).toBe(4);
	});

	test('no requests, none at once', () => {
		expect(peakInFlight([], 30)).toBe(0);
	});
});

/** A profile whose stacks are root → each path's frames, one sample of `ms` on each leaf. */
function profileOf(paths: Array<{ frames: Array<[string, string]>; ms: number }>): CpuProfile {
	const nodes: CpuProfile['nodes'] = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] }];
	const samples: number[] = [];
	const timeDeltas: number[] = [0];
	for (const path of paths) {
		let parent = nodes[0];
		for (const [functionName, url] of path.frames) {
			const node = { id: nodes.length + 1, callFrame: { functionName, url }, children: [] as number[] };
			parent.children?.push(node.id);
			nodes.push(node);
			parent = node;
		}
		samples.push(parent.id);
		timeDeltas.push(path.ms * 1000);
	}
	return { nodes, samples, timeDeltas };
}

const ERP = 'file:///u/.n8n/nodes/node_modules/n8n-nodes-erp/dist/nodes/Erp/transport/client.js';
const HELPER = 'file:///n8n/node_modules/n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js';

describe('bench: where a CPU profile of n8n spends its time', () => {
	test("a sample belongs to the first category of its stack: the credential's expression counts as the credential", () => {
		const totals = categorise(
			profileOf([
				{ frames: [['execute', ERP], ['httpRequestWithAuthentication', HELPER], ['authenticate', 'file:///n8n/dist/credentials-helper.js'], ['evalClosureSync', 'file:///n8n/node_modules/isolated-vm/isolated-vm.js']], ms: 4 },
				{ frames: [['execute', ERP], ['httpRequestWithAuthentication', HELPER], ['request', 'file:///n8n/node_modules/axios/lib/core/Axios.js']], ms: 3 },
				{ frames: [['execute', ERP], ['getNodeParameter', 'file:///n8n/node_modules/n8n-workflow/dist/expression.js']], ms: 2 },
				{ frames: [['execute', ERP]], ms: 1 },
				{ frames: [['(garbage collector)', '']], ms: 5 },
				{ frames: [['runNode', 'file:///n8n/node_modules/n8n-core/dist/execution-engine/workflow-execute.js']], ms: 6 },
			]),
		);
		expect(totals).toEqual({ credential: 4, http: 3, expressions: 2, node: 1, gc: 5, rest: 6 });
	});

	test("the node's own code is only what runs in it: n8n helpers it calls are n8n's", () => {
		const totals = categorise(profileOf([{ frames: [['execute', ERP], ['deepCopy', 'file:///n8n/node_modules/n8n-workflow/dist/utils.js']], ms: 7 }]));
		expect(totals).toMatchObject({ node: 0, rest: 7 });
	});

	test("n8n installed in a folder named after the package (~/.cache/n8n-nodes-erp) is n8n's, not the node's", () => {
		const cached = 'file:///root/.cache/n8n-nodes-erp/n8n-2.41.1/node_modules/n8n-workflow/dist/utils.js';
		const totals = categorise(profileOf([{ frames: [['execute', ERP], ['deepCopy', cached]], ms: 7 }]));
		expect(totals).toMatchObject({ node: 0, rest: 7 });
	});

	test("beside the floor: getNodeParameter less its expressions, the floor's own code, and the node's functions with their callees", () => {
		const FLOOR = 'file:///u/.n8n/nodes/node_modules/n8n-nodes-erp-floor/ErpFloor.node.js';
		const PARAMETER = 'file:///n8n/node_modules/n8n-core/dist/execution-engine/node-execution-context/node-execution-context.js';
		const profile = profileOf([
			{ frames: [['execute', ERP], ['_getNodeParameter', PARAMETER], ['renderExpression', 'file:///n8n/node_modules/n8n-workflow/dist/expression.js']], ms: 3 },
			{ frames: [['execute', ERP], ['_getNodeParameter', PARAMETER]], ms: 2 },
			{ frames: [['execute', FLOOR]], ms: 1 },
		]);
		expect(categoriseBy(profile, REMOTE_CATEGORIES)).toMatchObject({ expressions: 3, parameters: 2, node: 0, floor: 1 });
		expect(functionsOf(profile, NODE_PACKAGE, 5)).toEqual([{ fn: 'execute (transport/client.js:0)', ms: 5 }]);
	});

	test('idle time is no CPU and is left out', () => {
		const totals = categorise(profileOf([{ frames: [['(idle)', '']], ms: 50 }, { frames: [['execute', ERP]], ms: 1 }]));
		expect(Object.values(totals).reduce((a, b) => a + b, 0)).toBe(1);
	});
});

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
