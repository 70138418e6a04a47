import type { Summary } from '../summary';
import type { SharedLimitFigures, SharedLimitSide } from '../workloads/sharedLimit';
import { count } from './format';

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const cells = (f: SharedLimitFigures) => `${percent(f.refusedShare)} | ${f.vsMinimum.toFixed(2)}× | ${f.failed} | ${f.duplicates}`;
const beside = (after: SharedLimitFigures, before?: SharedLimitFigures) => (before ? `${cells(after)} | ${cells(before)} |` : `${cells(after)} | — | — | — | — |`);

function rows(label: string, after: SharedLimitSide[keyof SharedLimitSide], before?: SharedLimitSide[keyof SharedLimitSide]): string[] {
	return [
		`| ${label} | with rate-limit headers | ${beside(after.withHeaders, before?.withHeaders)}`,
		...(after.retryAfterOnly ? [`| ${label} | a 429's Retry-After only | ${beside(after.retryAfterOnly, before?.retryAfterOnly)}`] : []),
		`| ${label} | a bare 429 only | ${beside(after.withoutHeaders, before?.withoutHeaders)}`,
	];
}

/** docs/speed.md's lines on many runs on one limit, beside the code before the rate controller. */
export function sharedLimitLines(r: Summary): string[] {
	const shared = r.sharedLimit;
	if (!shared) return [];
	const { after, before } = shared;
	return [
		'',
		`Many runs on one rate limit (${shared.date.slice(0, 10)}): ${shared.runs} workflows started together, ${count(shared.rowsPerRun)} creates each ` +
			`(Concurrency ${shared.concurrency}, Max Retries ${shared.maxRetries}), against a limit of ${shared.limit_rps} requests a second, in one n8n ` +
			'and in queue mode (main, two workers, Redis, PostgreSQL). Time is against the minimum the limit allows; failed items and ' +
			`duplicates as the ERP holds them${before ? `; "before" is commit ${before.commit}, before the one rate controller per ERP` : ''}.`,
		'',
		'| n8n | the ERP tells its limit by | refused | time vs minimum | failed | duplicates | before: refused | time | failed | duplicates |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...rows('one process', after.oneProcess, before?.oneProcess),
		...rows('queue mode', after.queueMode, before?.queueMode),
	];
}
