import path from 'node:path';

import { median } from '../../../bench/stats';
import { contextFile } from '../../../tooling/host/context';
import { readResults, table, withBlocks, writeResults, type Report } from '../../../tooling/host/results';

/** One full `npm run test:e2e` against one n8n version. */
export interface E2eRun {
	n8n: string;
	line: string;
	/** The Node n8n ran on. */
	node: string;
	/** The day the run ended, UTC. */
	date: string;
	tests: { passed: number; failed: number; total: number };
	/** The timed webhook → ERP node → sandbox calls of test/e2e/round-trip.e2e.test.ts; null when that test did not finish. */
	roundTrips: RoundTrips | null;
}

export interface E2eResults {
	about: string;
	/** The latest full run per n8n version, newest version first. */
	runs: E2eRun[];
}

const ABOUT =
	'Written by every full `npm run test:e2e` (all test files; N8N_VERSION picks the n8n), one entry per n8n version: the latest run replaces the previous one. Round trips: wall time of POST /webhook/<path> → ERP node → GET from the sandbox → answer, sequential, after one untimed warm-up call.';

export function summarize(samplesMs: number[]) {
	if (samplesMs.length === 0) throw new Error('no round trips to summarize');
	const [minMs, medianMs, maxMs] = [Math.min(...samplesMs), median(samplesMs), Math.max(...samplesMs)].map(Math.round);
	return { count: samplesMs.length, minMs, medianMs, maxMs };
}

type RoundTrips = ReturnType<typeof summarize>;

const byVersionDescending = (a: E2eRun, b: E2eRun) => b.n8n.localeCompare(a.n8n, 'en', { numeric: true });

/** The results with `run` replacing any earlier run of the same n8n version. */
export function withRun(results: E2eResults | undefined, run: E2eRun): E2eResults {
	const others = (results?.runs ?? []).filter((r) => r.n8n !== run.n8n);
	return { about: ABOUT, runs: [...others, run].sort(byVersionDescending) };
}

/** The Markdown table of docs/compatibility.md. */
export function compatibilityTable(results: E2eResults): string {
	const outcome = ({ passed, failed, total }: E2eRun['tests']) =>
		failed > 0 ? `${failed} of ${total} FAILED` : passed === total ? `all ${passed} passed` : `${passed} of ${total} passed, ${total - passed} not run`;
	const trips = (t: RoundTrips | null) => (t ? `${t.minMs} / ${t.medianMs} / ${t.maxMs} ms (n=${t.count})` : 'not measured');
	return table(
		['n8n', 'line', 'Node (n8n ran on)', 'date', 'what ran', 'result', 'round trip min / median / max'],
		results.runs.map((r) => [r.n8n, r.line, r.node, r.date, `\`N8N_VERSION=${r.n8n} npm run test:e2e\``, outcome(r.tests), trips(r.roundTrips)]),
	);
}

/** docs/e2e-results.json, and the table of docs/compatibility.md generated from it. */
export const e2eReport: Report<E2eResults> = {
	json: 'docs/e2e-results.json',
	doc: 'docs/compatibility.md',
	markdown: (results, doc) => withBlocks(doc, { 'e2e:results': compatibilityTable(results) }),
};

/** Adds the run to docs/e2e-results.json and regenerates the table of docs/compatibility.md from it. */
export const recordRun = (run: E2eRun) => writeResults(e2eReport, withRun(readResults(e2eReport), run));

/** Where the round-trip test leaves its timings (ms) for globalTeardown: n8n's user folder, beside the context file. */
export const roundTripsFile = (userFolder = path.dirname(contextFile())): string => path.join(userFolder, 'round-trips.json');
