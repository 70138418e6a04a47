import type { HttpMethod, RawResponse } from './types';

/**
 * The retry policy: which failures are sent again, after how long, and how much one request may wait in all.
 * - 429: the ERP did nothing, so every method is retried, after the wait it names (else the rate-limit back-off).
 * - 5xx, timeouts, dropped connections: GET, PUT and DELETE are retried on the server-error back-off (a reset
 *   header belongs to the rate limit, not to a failing server). A POST is not: the ERP may have done it, and only a
 *   lookup proving nothing was written lets it be sent again.
 * - A request that never reached the service is sent again whatever the method, unless a retry cannot cure it.
 */

/** A wait the ERP named: how long from now, and the instant it named when it named one (an HTTP date, an epoch reset). */
export type NamedWait = { ms: number; atMs?: number };

/** How one attempt failed, as far as retrying is concerned. */
export type Failure =
	| { kind: 'status'; statusCode: number; namedWait?: NamedWait }
	| { kind: 'network'; code: string; timedOut: boolean };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; rateLimited: boolean; namedByErp: boolean };

export interface RetryContext {
	method: HttpMethod;
	retriesSoFar: number;
	maxRetries: number;
	random: () => number;
	/** A lookup after this failure proved that the ERP wrote nothing: a POST may be sent again. */
	provenNotWritten?: boolean;
}

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set<HttpMethod>(['GET', 'PUT', 'DELETE']);

// Failures before any byte of the request reached the service: no connection, no address, no trusted TLS.
const NEVER_SENT = /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|ENOTFOUND|ERR_INVALID_URL|CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;
// Of those, the ones a retry cannot cure: a host that does not exist, a malformed URL, a rejected certificate.
const CANNOT_CURE = /^(ENOTFOUND|ERR_INVALID_URL|CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

const RATE_LIMIT_BASE_MS = 1_000;
const SERVER_ERROR_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;

/** Whether the request certainly never reached the service (so nothing can have been done). */
export function neverReachedService(failure: Failure): boolean {
	return failure.kind === 'network' && NEVER_SENT.test(failure.code);
}

/** Whether the request never reached the service for a reason a retry cannot cure (no such host, bad URL or certificate). */
export function retryCannotCure(failure: Failure): boolean {
	return failure.kind === 'network' && CANNOT_CURE.test(failure.code);
}

/** Whether the service may have done the request although no success came back (5xx, timeout, dropped connection). */
export function isUnclear(failure: Failure): boolean {
	return failure.kind === 'status' ? failure.statusCode >= 500 : !neverReachedService(failure);
}

/** Exponential back-off with "equal jitter": half fixed, half random, so parallel callers spread out. */
export function backoffDelay(retryIndex: number, baseMs: number, random: () => number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** retryIndex);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function decideRetry(failure: Failure, ctx: RetryContext): RetryDecision {
	if (ctx.retriesSoFar >= ctx.maxRetries) return { retry: false };
	const resendable = IDEMPOTENT.has(ctx.method) || ctx.provenNotWritten === true;
	const onServerSchedule = {
		retry: true as const,
		delayMs: backoffDelay(ctx.retriesSoFar, SERVER_ERROR_BASE_MS, ctx.random),
		rateLimited: false,
		namedByErp: false,
	};

	if (failure.kind === 'status') {
		if (failure.statusCode === 429) {
			const named = failure.namedWait !== undefined;
			const delayMs = failure.namedWait?.ms ?? backoffDelay(ctx.retriesSoFar, RATE_LIMIT_BASE_MS, ctx.random);
			return { retry: true, delayMs, rateLimited: true, namedByErp: named };
		}
		return failure.statusCode >= 500 && resendable ? onServerSchedule : { retry: false };
	}
	if (neverReachedService(failure)) return retryCannotCure(failure) ? { retry: false } : onServerSchedule;
	return resendable ? onServerSchedule : { retry: false };
}

type Headers = RawResponse['headers'];

const SECONDS = /^\d+(\.\d+)?$/;

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * The wait a 429 names: `Retry-After` (seconds or an HTTP date), else `X-RateLimit-Reset` (epoch seconds, or
 * seconds from now when small), else the IETF draft's `RateLimit-Reset` (seconds from now). `atMs` only when the
 * ERP named an instant. Undefined when the answer names no wait.
 */
export function rateLimitWait(headers: Headers, nowMs: number): NamedWait | undefined {
	const until = (atMs: number): NamedWait => ({ ms: Math.max(0, Math.round(atMs - nowMs)), atMs });
	const retryAfter = header(headers, 'retry-after');
	if (retryAfter) {
		if (SECONDS.test(retryAfter)) return { ms: Math.round(Number(retryAfter) * 1000) };
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date)) return until(date);
	}
	const reset = header(headers, 'x-ratelimit-reset');
	if (reset && SECONDS.test(reset)) {
		const value = Number(reset);
		return value > 1e9 ? until(Math.round(value * 1000)) : { ms: Math.round(value * 1000) };
	}
	const ietfReset = header(headers, 'ratelimit-reset');
	if (ietfReset && SECONDS.test(ietfReset)) return { ms: Math.round(Number(ietfReset) * 1000) };
	return undefined;
}

/** X-RateLimit-Remaining (or the IETF draft's RateLimit-Remaining) as a count; undefined when not sent. */
export function remainingFrom(headers: Headers): number | undefined {
	const text = header(headers, 'x-ratelimit-remaining') ?? header(headers, 'ratelimit-remaining');
	return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** X-RateLimit-Limit (or the IETF draft's RateLimit-Limit) as a count; undefined when not sent. */
export function limitFrom(headers: Headers): number | undefined {
	const text = header(headers, 'x-ratelimit-limit') ?? header(headers, 'ratelimit-limit');
	return text && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** The waiting one request may do in all: back-off sleeps and waits at the shared 429 gate. */
export class WaitBudget {
	private spent = 0;

	constructor(private readonly totalMs: number) {}

	left(): number {
		return this.totalMs - this.spent;
	}

	fits(ms: number): boolean {
		return ms <= this.left();
	}

	spend(ms: number): void {
		this.spent += ms;
	}
}
