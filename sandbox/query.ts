import { parseTimestamp, isDate } from './dates';
import { badRequest } from './errors';

/** Typed reads of query parameters. An empty value counts as absent; a malformed one is a 400. */

export function stringParam(query: URLSearchParams, name: string): string | undefined {
	const value = query.get(name);
	return value === null || value === '' ? undefined : value;
}

export function integerParam(query: URLSearchParams, name: string, min = 1): number | undefined {
	const value = stringParam(query, name);
	if (value === undefined) return undefined;
	const n = /^\d+$/.test(value) ? Number(value) : NaN;
	if (!Number.isSafeInteger(n) || n < min) {
		throw badRequest(`Query parameter ${name} must be an integer of at least ${min}, got "${value}"`);
	}
	return n;
}

export function booleanParam(query: URLSearchParams, name: string): boolean | undefined {
	const value = stringParam(query, name);
	if (value === undefined) return undefined;
	if (value !== 'true' && value !== 'false') {
		throw badRequest(`Query parameter ${name} must be true or false, got "${value}"`);
	}
	return value === 'true';
}

export function dateParam(query: URLSearchParams, name: string): string | undefined {
	const value = stringParam(query, name);
	if (value !== undefined && !isDate(value)) {
		throw badRequest(`Query parameter ${name} must be a date YYYY-MM-DD, got "${value}"`);
	}
	return value;
}

/** Returned normalised (`toISOString`), so it compares as a string with stored timestamps. */
export function timestampParam(query: URLSearchParams, name: string): string | undefined {
	const value = stringParam(query, name);
	if (value === undefined) return undefined;
	const ms = parseTimestamp(value);
	if (ms === undefined) throw badRequest(`Query parameter ${name} must be an ISO 8601 timestamp, got "${value}"`);
	return new Date(ms).toISOString();
}
