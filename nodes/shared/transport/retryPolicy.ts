import type { HttpMethod, NamedWait } from './types';

// What is sent again: a 429 (the ERP did nothing) after the wait it names; a 5xx or network failure of GET, PUT, DELETE
// (or of a POST or PATCH a lookup proved unwritten) on the server-error back-off, whatever reset it names (that is the
// rate limit's); a request that never reached the service, unless a retry cannot cure it.

/** How one attempt failed, as far as retrying is concerned. */
export type Failure = { kind: 'status'; statusCode: number; namedWait?: NamedWait } | { kind: 'network'; code: string; timedOut: boolean };
export type RetryDecision = { retry: false } | { retry: true; delayMs: number; namedByErp: boolean };
/** `provenNotWritten`: a lookup after this failure proved that the ERP wrote nothing, so a POST may be sent again. */
export type RetryContext = { method: HttpMethod; retriesSoFar: number; maxRetries: number; random: () => number; provenNotWritten?: boolean };

/** Whether sending the request twice leaves the ERP as sending it once does (a PATCH may add to what is there). */
export const isIdempotent = (method: HttpMethod): boolean => method === 'GET' || method === 'PUT' || method === 'DELETE';

// Failures before any byte reached the service; of those, the ones a retry cannot cure (no such host, bad URL or certificate).
const CANNOT_CURE = /^(ENOTFOUND|ERR_INVALID_URL|CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;
const NEVER_SENT = new RegExp(`^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)|${CANNOT_CURE.source}`);
const [RATE_LIMIT_BASE_MS, SERVER_ERROR_BASE_MS, BACKOFF_CAP_MS] = [1_000, 500, 30_000];

/** Whether the request certainly never reached the service (so nothing can have been done). */
export const neverReachedService = (failure: Failure): boolean => failure.kind === 'network' && NEVER_SENT.test(failure.code);
/** Whether the request never reached the service for a reason a retry cannot cure (no such host, bad URL or certificate). */
export const retryCannotCure = (failure: Failure): boolean => failure.kind === 'network' && CANNOT_CURE.test(failure.code);
/** Whether the service may have done the request although no success came back (5xx, timeout, dropped connection). */
export const isUnclear = (failure: Failure): boolean => (failure.kind === 'status' ? failure.statusCode >= 500 : !neverReachedService(failure));

/** Exponential back-off with "equal jitter": half fixed, half random, so parallel callers spread out. */
export function backoffDelay(retryIndex: number, baseMs: number, random: () => number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, baseMs * 2 ** retryIndex);
	return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export function decideRetry(failure: Failure, ctx: RetryContext): RetryDecision {
	if (ctx.retriesSoFar >= ctx.maxRetries) return { retry: false };
	const resendable = isIdempotent(ctx.method) || ctx.provenNotWritten === true;
	const onServerSchedule = { retry: true as const, delayMs: backoffDelay(ctx.retriesSoFar, SERVER_ERROR_BASE_MS, ctx.random), namedByErp: false };
	if (failure.kind === 'status') {
		if (failure.statusCode !== 429) return failure.statusCode >= 500 && resendable ? onServerSchedule : { retry: false };
		const delayMs = failure.namedWait?.ms ?? backoffDelay(ctx.retriesSoFar, RATE_LIMIT_BASE_MS, ctx.random);
		return { retry: true, delayMs, namedByErp: failure.namedWait !== undefined };
	}
	if (neverReachedService(failure)) return retryCannotCure(failure) ? { retry: false } : onServerSchedule;
	return resendable ? onServerSchedule : { retry: false };
}
