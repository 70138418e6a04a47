import { backoffDelay, decideRetry, isIdempotent, isUnclear, neverReachedService } from '../../../../nodes/shared/transport/retryPolicy';
import type { Failure, RetryContext } from '../../../../nodes/shared/transport/retryPolicy';
import type { HttpMethod } from '../../../../nodes/shared/transport/types';

const status = (statusCode: number, namedWaitMs?: number): Failure => ({ kind: 'status', statusCode, namedWait: namedWaitMs === undefined ? undefined : { ms: namedWaitMs } });
const network = (code: string, timedOut = false): Failure => ({ kind: 'network', code, timedOut });
const attempt = (method: HttpMethod, retriesSoFar = 0, more: Partial<RetryContext> = {}): RetryContext => ({ method, retriesSoFar, maxRetries: 5, random: () => 0.5, ...more });
const decide = (failure: Failure, method: HttpMethod, retriesSoFar = 0, more: Partial<RetryContext> = {}) => decideRetry(failure, attempt(method, retriesSoFar, more));

const IDEMPOTENT: HttpMethod[] = ['GET', 'PUT', 'DELETE'];
const NEVER_SENT = ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'];
const CANNOT_CURE = ['ENOTFOUND', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'];
const UNCLEAR = [status(500), status(502), status(503), status(504), network('ECONNRESET'), network('ECONNABORTED', true), network('ETIMEDOUT', true), network('ERR_UNKNOWN')];

describe('decideRetry', () => {
	it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as HttpMethod[])('retries a 429 for %s after the wait the ERP named', (method) => {
		expect(decide(status(429, 2000), method)).toEqual({ retry: true, delayMs: 2000, namedByErp: true });
	});

	it('retries a 5xx or a network failure of GET, PUT and DELETE (even one it has no name for) on the server-error schedule', () => {
		for (const method of IDEMPOTENT) {
			for (const failure of [...UNCLEAR, network('EPIPE'), network('ERR_STREAM_PREMATURE_CLOSE')]) expect(decide(failure, method)).toEqual({ retry: true, delayMs: 375, namedByErp: false });
		}
		// A 5xx's reset header belongs to the rate limit: an hour named, the back-off kept.
		expect(decide(status(503, 3_600_000), 'GET', 3)).toEqual({ retry: true, delayMs: 3000, namedByErp: false });
	});

	it('never sends a POST or PATCH again after an unclear failure, unless a lookup proved nothing was written', () => {
		expect(isIdempotent('PATCH')).toBe(false);
		for (const method of ['POST', 'PATCH'] as HttpMethod[]) {
			for (const failure of UNCLEAR) {
				expect(decide(failure, method)).toEqual({ retry: false });
				expect(decide(failure, method, 0, { provenNotWritten: true })).toMatchObject({ retry: true, namedByErp: false });
				expect(decide(failure, method, 5, { provenNotWritten: true })).toEqual({ retry: false });
			}
		}
	});

	it('retries a request of any method that never reached the service, unless a retry cannot cure it', () => {
		for (const code of NEVER_SENT) expect(decide(network(code), 'POST')).toMatchObject({ retry: true });
		for (const code of CANNOT_CURE) expect(decide(network(code), 'GET')).toEqual({ retry: false });
	});

	it('does not retry other client errors, nor a success status that reported a failure', () => {
		for (const code of [200, 201, 400, 401, 403, 404, 409, 422]) expect(decide(status(code), 'GET')).toEqual({ retry: false });
	});

	it('stops after maxRetries', () => {
		expect(decide(status(429), 'GET', 4)).toMatchObject({ retry: true });
		expect(decide(status(429), 'GET', 5)).toEqual({ retry: false });
		expect(decide(status(503), 'GET', 0, { maxRetries: 0 })).toEqual({ retry: false });
	});

	it('backs off exponentially with jitter when a 429 names no wait', () => {
		expect(decide(status(429), 'GET')).toEqual({ retry: true, delayMs: 750, namedByErp: false });
		expect(decide(status(429), 'GET', 2)).toEqual({ retry: true, delayMs: 3000, namedByErp: false });
	});
});

it('never reached the service: refused and unreachable connections, DNS failures, bad URLs, rejected certificates; unclear: the rest of the network failures and 5xx', () => {
	for (const code of [...NEVER_SENT, ...CANNOT_CURE]) expect([neverReachedService(network(code)), isUnclear(network(code))]).toEqual([true, false]);
	for (const failure of UNCLEAR) expect([neverReachedService(failure), isUnclear(failure)]).toEqual([false, true]);
	for (const failure of [status(429), status(422), status(404), status(200)]) expect(isUnclear(failure)).toBe(false);
});

it('backoffDelay stays between half and all of the exponential ceiling, capped at 30 s', () => {
	expect([backoffDelay(3, 500, () => 0), backoffDelay(3, 500, () => 1), backoffDelay(20, 500, () => 1)]).toEqual([2000, 4000, 30000]);
});
