import { readFileSync } from 'node:fs';
import path from 'node:path';

import { compactJson } from '../../../tooling/host/compactJson';
import { rateRow, remoteSummary } from '../../../bench/summary';
import type { RemoteResult } from '../../../bench/workloads/remote';
import type { RemoteWorkloadResult } from '../../../bench/workloads/remote/compare';

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
		const summary = remoteSummary(remote);
		expect(summary.bulkCreate).not.toHaveProperty('samples');
		expect(summary.bulkCreate).not.toHaveProperty('concurrencySweepRuns');
		expect(summary.bulkCreate.profile?.erpNode).toEqual({ perItem_ms: { total: 0.5 }, medianInFlight: 4, peakInFlight: 5 });
		expect(summary.bulkCreate.erpNode_s).toBe(1.5);
		expect(summary.mixed.concurrencySweep).toEqual({ '1': 4, '5': 1.2 });
		expect(summary.listAll.ratios.erpNodeVsRawClient).toBe(1.2);
	});

	test('the committed summary holds no run-by-run figures', () => {
		const text = readFileSync(path.join(__dirname, '..', '..', '..', 'bench', 'summary.json'), 'utf8');
		expect(text).not.toMatch(/"(samples|concurrencySweepRuns|functions)":/);
	});

	test('compact JSON reads back as the same value, plain objects and arrays on one line', () => {
		const value = { a: 1, b: { c: [1, 2], d: 'x' }, e: [{ f: null }], g: [], h: undefined };
		const text = compactJson(value);
		expect(JSON.parse(text)).toEqual({ a: 1, b: { c: [1, 2], d: 'x' }, e: [{ f: null }], g: [] });
		expect(text).toBe('{\n  "a": 1,\n  "b": {\n    "c": [1, 2],\n    "d": "x"\n  },\n  "e": [\n    {"f": null}\n  ],\n  "g": []\n}');
	});
});
