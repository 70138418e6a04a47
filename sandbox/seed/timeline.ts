import { addDays, dateToMs } from '../dates';
import type { Random } from './random';

const DAY_MS = 86_400_000;

/** The day seeded data is built around; every seeded timestamp is before its midnight (so never in the future). */
export interface Timeline {
	today: string;
	rng: Random;
}

/** A timestamp on `date` during office hours. */
export function officeTime(t: Timeline, date: string): string {
	return new Date(dateToMs(date) + t.rng.int(8 * 60, 18 * 60 - 1) * 60_000 + t.rng.int(0, 59_999)).toISOString();
}

/** `count` increasing timestamps spread over the `days` before today (record i is created after record i-1). */
export function spreadTimestamps(t: Timeline, count: number, days: number): string[] {
	const end = dateToMs(t.today);
	const step = (days * DAY_MS) / Math.max(count, 1);
	const start = end - days * DAY_MS;
	const stamps: string[] = [];
	for (let i = 0; i < count; i++) stamps.push(new Date(Math.floor(start + (i + t.rng.next() * 0.95) * step)).toISOString());
	return stamps;
}

/** A later timestamp, still before today. */
export function laterThan(t: Timeline, stamp: string): string {
	const from = Date.parse(stamp);
	const end = dateToMs(t.today) - 1;
	return new Date(from + Math.floor(t.rng.next() * (end - from))).toISOString();
}

export const daysAgo = (t: Timeline, days: number): string => addDays(t.today, -days);
