import { readFileSync } from 'node:fs';
import path from 'node:path';

import { peakInFlight } from '../../../bench/inFlight';
import { categorise, categoriseBy, functionsOf, NODE_PACKAGE, REMOTE_CATEGORIES, type CpuProfile } from '../../../bench/profile/categories';
import { readmeBlocks } from '../../../bench/readme';
import { rateRow, remoteSummary, type Summary } from '../../../bench/summary';
import type { RemoteResult } from '../../../bench/workloads/remote';
import type { RemoteWorkloadResult } from '../../../bench/workloads/remote/compare';
import { compactJson } from '../../../tooling/host/compactJson';

describe('bench: requests in flight at once, from the sandbox log', () => {
	test.each<[string, number[], number, number]>([
		['requests that follow each other after a full answer time never overlap', [0, 100, 200, 300], 100, 1],
		['a batch that arrives together is in flight together', [0, 1, 2, 3, 4, 150, 151], 100, 5],
		['requests still answering when later ones arrive count with them, in any order', [90, 0, 50, 140, 30], 100, 4],
		['no requests, none at once', [], 30, 0],
	])('%s', (_case, arrivals, answerMs, peak) => {
		expect(peakInFlight(arrivals, answerMs)).toBe(peak);
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

	test.each([
		["the node's own code is only what runs in it: n8n helpers it calls are n8n's", 'file:///n8n/node_modules/n8n-workflow/dist/utils.js'],
		["n8n installed in a folder named after the package (~/.cache/n8n-nodes-erp) is n8n's, not the node's", 'file:///root/.cache/n8n-nodes-erp/n8n-2.41.1/node_modules/n8n-workflow/dist/utils.js'],
	])('%s', (_case, helper) => {
		const totals = categorise(profileOf([{ frames: [['execute', ERP], ['deepCopy', helper]], ms: 7 }]));
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
const summaryText = readFileSync(path.join(root, 'bench', 'summary.json'), 'utf8');
const summary = JSON.parse(summaryText) as Summary;

describe('the published speed figures', () => {
	it.each(readmeBlocks(summary).map((block) => [block.file, block] as const))(
		'%s holds exactly what bench/summary.json gives (npm run bench -- --readme-only writes it again)',
		(file, { markers, body }) => {
			expect(readFileSync(path.join(root, file), 'utf8')).toContain(`${markers.start}\n${body}\n${markers.end}`);
		},
	);
});

const sample = (seconds: number, extra: Partial<{ failed: number; missing: number; duplicates: number; refused: number; succeeded: boolean }> = {}) => ({
	seconds,
	failed: 0,
	missing: 0,
	duplicates: 0,
	refused: 0,
	succeeded: true,
	...extra,
});

const workload = (erpNode_s: number): RemoteWorkloadResult => ({
	items: 100,
	requests: 100,
	concurrency: 5,
	erpNode_s,
	httpRequestNodeBatching_s: 2,
	httpRequestNode_s: 3,
	rawClient_s: 1,
	ratios: { erpNodeVsRawClient: erpNode_s, erpNodeVsHttpRequestNodeBatching: erpNode_s / 2, httpRequestNodeVsErpNode: 3 / erpNode_s },
	peakInFlight: { erpNode: 5, httpRequestNodeBatching: 5, httpRequestNode: 100, rawClient: 5 },
	profile: {
		erpNode: { perItem_ms: { total: 0.5 }, functions: [{ fn: 'execute', perItem_ms: 0.1 }], medianInFlight: 4, peakInFlight: 5 },
		floor: { perItem_ms: { total: 0.4 }, functions: [{ fn: 'execute', perItem_ms: 0.1 }], medianInFlight: 4, peakInFlight: 5 },
	},
	samples: { erpNode: [1.1, 1.2, 1.3] },
	concurrencySweep: { '1': 4, '5': 1.2 },
	concurrencySweepRuns: { '1': [4, 4, 4], '5': [1.2, 1.2, 1.2] },
});

describe('bench: the summary the docs are generated from', () => {
	test("a rate-limited contender's row: the median time and 429s, the worst run's failures, missing items and duplicates", () => {
		const row = rateRow([
			sample(30, { refused: 4 }),
			sample(21, { failed: 2, missing: 1, refused: 9 }),
			sample(25, { duplicates: 3, succeeded: false, refused: 1 }),
		]);
		expect(row).toEqual({ runs: 3, succeeded: 2, median_s: 25, failed: 2, missing: 1, duplicates: 3, refused: 4 });
	});

	test("a remote part keeps its medians, ratios and sweep and drops every run and the profile's functions", () => {
		const remote: RemoteResult = { latency_ms: 30, listAll: workload(1.2), bulkCreate: workload(1.5), mixed: workload(2) };
		const kept = remoteSummary(remote);
		expect(kept.bulkCreate).not.toHaveProperty('samples');
		expect(kept.bulkCreate).not.toHaveProperty('concurrencySweepRuns');
		expect(kept.bulkCreate.profile?.erpNode).toEqual({ perItem_ms: { total: 0.5 }, medianInFlight: 4, peakInFlight: 5 });
		expect(kept.bulkCreate.erpNode_s).toBe(1.5);
		expect(kept.mixed.concurrencySweep).toEqual({ '1': 4, '5': 1.2 });
		expect(kept.listAll.ratios.erpNodeVsRawClient).toBe(1.2);
	});

	test('the committed summary holds no run-by-run figures', () => {
		expect(summaryText).not.toMatch(/"(samples|concurrencySweepRuns|functions)":/);
	});

	test('compact JSON reads back as the same value, plain objects and arrays on one line', () => {
		const value = { a: 1, b: { c: [1, 2], d: 'x' }, e: [{ f: null }], g: [], h: undefined };
		const text = compactJson(value);
		expect(JSON.parse(text)).toEqual({ a: 1, b: { c: [1, 2], d: 'x' }, e: [{ f: null }], g: [] });
		expect(text).toBe('{\n  "a": 1,\n  "b": {\n    "c": [1, 2],\n    "d": "x"\n  },\n  "e": [\n    {"f": null}\n  ],\n  "g": []\n}');
	});
});
