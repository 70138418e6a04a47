import { ratio } from '../stats';
import type { RateRow } from '../summary';

export const s = (value: number) => `${value.toFixed(2)} s`;
export const times = (value: number, base: number) => `${ratio(value, base).toFixed(2)}×`;
export const count = (value: number) => value.toLocaleString('en');
export const sweepLine = (sweep: Record<string, number>) =>
	Object.entries(sweep)
		.map(([concurrency, seconds]) => `${concurrency}: ${s(seconds)}`)
		.join(', ');

/** A rateLimited row's cells after the contender's name: median, vs minimum, successes, failures, duplicates, 429s. */
export const rateCells = (row: RateRow, minimum_s: number): string =>
	[s(row.median_s), times(row.median_s, minimum_s), `${row.succeeded}/${row.runs}`, row.failed, row.missing, row.duplicates, row.refused].join(' | ');

export const RATE_HEADER = '| median | vs minimum | executions succeeded | failed items | of them not in the ERP | duplicates | 429s (median) |';
export const RATE_RULE = '|---|---|---|---|---|---|---|---|';
