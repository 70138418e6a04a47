import type { HttpMethod } from './types';

/** How one attempt failed, as far as retrying is concerned. */
export type Failure =
	| { kind: 'status'; statusCode: number; retryAfterMs?: number }
	| { kind: 'network'; code: string; timedOut: boolean };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; rateLimited: boolean };

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'PUT', 'DELETE']);

// Codes of a request that never reached the service (no connection was made): safe to send again whatever the method.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);
// Codes that a retry cannot cure: a host that does not exist, a malformed URL, a certificate the client rejects.
const PERMANENT_CODE = /^(ENOTFOUND|ERR_INVALID_URL|CERT_|ERR_TLS_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

const RATE_LIMIT_BASE_MS = 1_000;
const SERVER_ERROR_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/** Exponential back-off with "equal jitter": half fixed, half random, so parallel callers spread out. */
export function backoffDelay(retryIndex: number, baseMs: number, random: () => number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** retryIndex);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Whether the request may have been processed by the service although no success came back.
 * A create retried after such a failure could write the record twice.
 */
export function isAmbiguous(failure: Failure): boolean {
	if (failure.kind === 'status') return failure.statusCode >= 500;
	return !NOT_SENT_CODES.has(failure.code);
}

/**
 * The retry rules, in one place:
 * - 429: the service says it did nothing, so every method is retried, after Retry-After when given.
 * - 5xx and network failures: retried for GET/PUT/DELETE only. POST (create, send, mark paid) is never
 *   retried after an ambiguous failure: the service may have done it, and a second attempt would duplicate it.
 * - A connection that was never made (refused, host or network unreachable) never reached the service:
 *   retried for every method. A host that does not exist or a rejected certificate is not retried at all.
 */
export function decideRetry(
	method: HttpMethod,
	failure: Failure,
	retriesSoFar: number,
	maxRetries: number,
	random: () => number,
): RetryDecision {
	if (retriesSoFar >= maxRetries) return { retry: false };

	if (failure.kind === 'status') {
		if (failure.statusCode === 429) {
			const delayMs = failure.retryAfterMs ?? backoffDelay(retriesSoFar, RATE_LIMIT_BASE_MS, random);
			return { retry: true, delayMs, rateLimited: true };
		}
		if (failure.statusCode >= 500 && IDEMPOTENT.has(method)) {
			const delayMs = failure.retryAfterMs ?? backoffDelay(retriesSoFar, SERVER_ERROR_BASE_MS, random);
			return { retry: true, delayMs, rateLimited: false };
		}
		return { retry: false };
	}

	// Any other network failure (reset, timeout, a dropped connection…) may have reached the service.
	const retryable = NOT_SENT_CODES.has(failure.code) || (IDEMPOTENT.has(method) && !PERMANENT_CODE.test(failure.code));
	if (!retryable) return { retry: false };
	return { retry: true, delayMs: backoffDelay(retriesSoFar, SERVER_ERROR_BASE_MS, random), rateLimited: false };
}

function headerValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds to wait as the service asks: `Retry-After` in seconds or as an HTTP date, else
 * `X-RateLimit-Reset` (epoch seconds, or seconds from now when small). Undefined when it does not say.
 */
export function parseRetryAfter(
	headers: Record<string, string | string[] | undefined>,
	nowMs: number,
): number | undefined {
	const retryAfter = headerValue(headers['retry-after'])?.trim();
	if (retryAfter) {
		if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
	}
	const reset = headerValue(headers['x-ratelimit-reset'])?.trim();
	if (reset && /^\d+(\.\d+)?$/.test(reset)) {
		const value = Number(reset);
		return value > 1e9 ? Math.max(0, value * 1000 - nowMs) : Math.round(value * 1000);
	}
	return undefined;
}
