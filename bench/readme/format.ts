import { median, ratio } from '../stats';
import type { RateLimitedSample } from '../workloads/rateLimited';

export const s = (value: number) => `${value.toFixed(2)} s`;
export const times = (value: number, base: number) => `${ratio(value, base).toFixed(2)}×`;
export const count = (value: number) => value.toLocaleString('en');
export const sweepLine = (sweep: Record<string, number>) =>
	Object.entries(sweep)
		.map(([concurrency, seconds]) => `${concurrency}: ${s(seconds)}`)
		.join(', ');

/** A rateLimited row's cells after the contender's name: median, vs minimum, successes, failures, duplicates, 429s. */
export function rateCells(samples: RateLimitedSample[], minimum_s: number): string {
	const worst = (field: 'failed' | 'missing' | 'duplicates') => Math.max(...samples.map((sample) => sample[field]));
	const seconds = median(samples.map((sample) => sample.seconds));
	const succeeded = samples.filter((sample) => sample.succeeded).length;
	return [
		s(seconds),
		times(seconds, minimum_s),
		`${succeeded}/${samples.length}`,
		worst('failed'),
		worst('missing'),
		worst('duplicates'),
		median(samples.map((sample) => sample.refused)),
	].join(' | ');
}

export const RATE_HEADER = '| median | vs minimum | executions succeeded | failed items | of them not in the ERP | duplicates | 429s (median) |';
export const RATE_RULE = '|---|---|---|---|---|---|---|---|';
