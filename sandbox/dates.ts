/** Dates are `YYYY-MM-DD` (UTC calendar days); timestamps ISO 8601 UTC with milliseconds. */

const DAY_MS = 86_400_000;

export const nowIso = (): string => new Date().toISOString();

export const todayUtc = (): string => nowIso().slice(0, 10);

export function isDate(value: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const time = Date.parse(`${value}T00:00:00.000Z`);
	return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

export const dateToMs = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);

export const msToDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string => msToDate(dateToMs(date) + days * DAY_MS);

export const daysBetween = (from: string, to: string): number => Math.round((dateToMs(to) - dateToMs(from)) / DAY_MS);

/** Last calendar day of the month of `date`. */
export function endOfMonth(date: string): string {
	const [year, month] = date.split('-').map(Number);
	return msToDate(Date.UTC(year, month, 0));
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Epoch ms of an ISO 8601 date or date-time, or undefined when it is not one. A time without an offset is
 * read as UTC (never as the server's local time).
 */
export function parseTimestamp(value: string): number | undefined {
	const match = TIMESTAMP.exec(value);
	if (!match) return undefined;
	const hasTime = value.length > 10;
	const text = hasTime && !match[1] ? `${value}Z` : value;
	const ms = Date.parse(hasTime ? text.replace(' ', 'T') : `${value}T00:00:00.000Z`);
	return Number.isNaN(ms) || !isDate(value.slice(0, 10)) ? undefined : ms;
}
