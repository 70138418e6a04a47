import { figuresRead } from '../../tooling/host/figuresRead';

interface Run {
	date: string;
	raw: number[];
	scenarios: Array<{ id: string; passed: boolean; log: string }>;
	counts: Record<string, number>;
	extra?: { detail: string };
}

const run = (): Run => ({
	date: '2026-11-28',
	raw: [1, 2, 3],
	scenarios: [
		{ id: 'a', passed: true, log: 'long a' },
		{ id: 'b', passed: false, log: 'long b' },
	],
	counts: { worker1: 3, worker2: 4 },
	extra: { detail: 'not shown' },
});

/** A document's generator: what it reads is what the kept figures must hold. */
const doc = (r: Run) =>
	[
		`Run ${r.date}`,
		...r.scenarios.map((s) => `${s.id}: ${s.passed ? 'pass' : 'FAIL'}`),
		Object.entries(r.counts).map(([name, n]) => `${name} ${n}`).join(', '),
		'extra' in r ? 'has extra' : 'no extra',
	].join('\n');

describe('the figures a document shows, cut from a run', () => {
	test('keeps what the generator read and drops the rest', () => {
		expect(figuresRead(run(), doc)).toEqual({
			date: '2026-11-28',
			scenarios: [
				{ id: 'a', passed: true },
				{ id: 'b', passed: false },
			],
			counts: { worker1: 3, worker2: 4 },
			extra: {},
		});
	});

	test('the generator writes the same document from the kept figures', () => {
		const kept = figuresRead(run(), doc);
		expect(doc(kept)).toBe(doc(run()));
		expect(doc(kept)).toContain('b: FAIL');
	});

	test('an object whose keys were listed keeps every key', () => {
		const kept = figuresRead(run(), (r) => Object.keys(r.counts).length);
		expect(kept.counts).toEqual({ worker1: 3, worker2: 4 });
		expect(kept).not.toHaveProperty('raw');
	});

	test('reading leaves the figures as they were', () => {
		const figures = run();
		figuresRead(figures, doc);
		expect(figures).toEqual(run());
	});
});
