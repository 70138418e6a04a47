import {
	backoffDelay,
	decideRetry,
	isIdempotent,
	isUnclear,
	neverReachedService,
} from '../../../../nodes/shared/transport/retryPolicy';
import type { Failure, RetryContext } from '../../../../nodes/shared/transport/retryPolicy';
import type { HttpMethod } from '../../../../nodes/shared/transport/types';

const status = (statusCode: number, namedWaitMs?: number): Failure => ({
	kind: 'status',
	statusCode,
	namedWait: namedWaitMs === undefined ? undefined : { ms: namedWaitMs },
});
const network = (code: string, timedOut = false): Failure => ({ kind: 'network', code, timedOut });
const attempt = (method: HttpMethod, retriesSoFar = 0, more: Partial<RetryContext> = {}): RetryContext => ({
	method,
	retriesSoFar,
	maxRetries: 5,
	random: () => 0.5,
	...more,
});

const CANNOT_CURE = ['ENOTFOUND', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'];

describe('decideRetry', () => {
	const methods: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

	it.each(methods)('retries a 429 for %s, waiting what the ERP named', (method) => {
		expect(decideRetry(status(429, 2000), attempt(method))).toEqual({ retry: true, delayMs: 2000, namedByErp: true });
	});

	it.each(['GET', 'PUT', 'DELETE'] as HttpMethod[])('retries a 5xx for idempotent %s', (method) => {
		for (const code of [500, 502, 503, 504]) {
			expect(decideRetry(status(code), attempt(method))).toMatchObject({ retry: true, namedByErp: false });
		}
	});

	it('retries a 5xx on the server-error schedule, whatever wait its headers name', () => {
		const anHourAway = 3_600_000;
		expect(decideRetry(status(503, anHourAway), attempt('GET'))).toEqual({ retry: true, delayMs: 375, namedByErp: false });
		expect(decideRetry(status(503, anHourAway), attempt('GET', 3))).toEqual({ retry: true, delayMs: 3000, namedByErp: false });
	});

	it('never retries a POST after a 5xx, a timeout or a dropped connection', () => {
		for (const failure of [status(500), status(502), status(503), network('ECONNRESET'), network('ECONNABORTED', true), network('ETIMEDOUT', true)]) {
			expect(decideRetry(failure, attempt('POST'))).toEqual({ retry: false });
		}
	});

	it('never retries a PATCH after a 5xx, a timeout or a dropped connection: it may add to what is there', () => {
		for (const failure of [status(500), status(503), network('ECONNRESET'), network('ETIMEDOUT', true)]) {
			expect(decideRetry(failure, attempt('PATCH'))).toEqual({ retry: false });
		}
		expect(isIdempotent('PATCH')).toBe(false);
	});

	it('sends a POST again after an unclear failure once a lookup proved nothing was written', () => {
		for (const failure of [status(500), network('ECONNRESET'), network('ECONNABORTED', true)]) {
			expect(decideRetry(failure, attempt('POST', 0, { provenNotWritten: true }))).toMatchObject({ retry: true, namedByErp: false });
			expect(decideRetry(failure, attempt('POST', 5, { provenNotWritten: true }))).toEqual({ retry: false });
		}
	});

	it.each(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])('retries a POST whose connection was never made (%s)', (code) => {
		expect(decideRetry(network(code), attempt('POST'))).toMatchObject({ retry: true });
	});

	it('retries any network failure of idempotent requests, even one it has no name for', () => {
		for (const method of ['GET', 'PUT', 'DELETE'] as HttpMethod[]) {
			for (const code of ['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ERR_UNKNOWN', 'ERR_STREAM_PREMATURE_CLOSE']) {
				expect(decideRetry(network(code), attempt(method))).toMatchObject({ retry: true });
			}
		}
		expect(decideRetry(network('ERR_UNKNOWN'), attempt('POST'))).toEqual({ retry: false });
	});

	it('does not retry what a retry cannot cure: an unknown host, a bad URL, a rejected certificate', () => {
		for (const code of CANNOT_CURE) {
			expect(decideRetry(network(code), attempt('GET'))).toEqual({ retry: false });
		}
	});

	it('does not retry other client errors, nor a success status that reported a failure', () => {
		for (const code of [200, 201, 400, 401, 403, 404, 409, 422]) {
			expect(decideRetry(status(code), attempt('GET'))).toEqual({ retry: false });
		}
	});

	it('stops after maxRetries', () => {
		expect(decideRetry(status(429), attempt('GET', 4))).toMatchObject({ retry: true });
		expect(decideRetry(status(429), attempt('GET', 5))).toEqual({ retry: false });
		expect(decideRetry(status(503), attempt('GET', 0, { maxRetries: 0 }))).toEqual({ retry: false });
	});

	it('backs off exponentially with jitter when a 429 names no wait', () => {
		expect(decideRetry(status(429), attempt('GET'))).toEqual({ retry: true, delayMs: 750, namedByErp: false });
		expect(decideRetry(status(429), attempt('GET', 2))).toEqual({ retry: true, delayMs: 3000, namedByErp: false });
	});
});

describe('one predicate for "never reached the service"', () => {
	it('covers refused and unreachable connections, DNS failures, bad URLs and rejected certificates', () => {
		for (const code of ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', ...CANNOT_CURE]) {
			expect(neverReachedService(network(code))).toBe(true);
			expect(isUnclear(network(code))).toBe(false);
		}
	});

	it('calls resets, timeouts, unknown failures and 5xx unclear; other statuses are clear', () => {
		for (const failure of [network('ECONNRESET'), network('ECONNABORTED', true), network('ERR_UNKNOWN'), status(500), status(502)]) {
			expect(neverReachedService(failure)).toBe(false);
			expect(isUnclear(failure)).toBe(true);
		}
		for (const failure of [status(429), status(422), status(404), status(200)]) expect(isUnclear(failure)).toBe(false);
	});
});

describe('backoffDelay', () => {
	it('stays between half and all of the exponential ceiling, capped at 30 s', () => {
		expect(backoffDelay(3, 500, () => 0)).toBe(2000);
		expect(backoffDelay(3, 500, () => 1)).toBe(4000);
		expect(backoffDelay(20, 500, () => 1)).toBe(30000);
	});
});
