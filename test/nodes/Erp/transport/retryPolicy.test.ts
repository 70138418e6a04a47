import { backoffDelay, decideRetry, isAmbiguous, parseRetryAfter } from '../../../../nodes/Erp/transport/retryPolicy';
import type { Failure } from '../../../../nodes/Erp/transport/retryPolicy';
import type { HttpMethod } from '../../../../nodes/Erp/transport/types';

const half = () => 0.5;
const status = (statusCode: number, retryAfterMs?: number): Failure => ({ kind: 'status', statusCode, retryAfterMs });
const network = (code: string, timedOut = false): Failure => ({ kind: 'network', code, timedOut });

describe('decideRetry', () => {
	const methods: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

	it.each(methods)('retries a 429 for %s, waiting what Retry-After asked', (method) => {
		expect(decideRetry(method, status(429, 2000), 0, 5, half)).toEqual({ retry: true, delayMs: 2000, rateLimited: true });
	});

	it.each(['GET', 'PUT', 'DELETE'] as HttpMethod[])('retries a 5xx for idempotent %s', (method) => {
		for (const code of [500, 502, 503, 504]) {
			expect(decideRetry(method, status(code), 0, 5, half)).toMatchObject({ retry: true, rateLimited: false });
		}
	});

	it('never retries a POST after a 5xx, a timeout or a dropped connection', () => {
		for (const failure of [status(500), status(502), status(503), network('ECONNRESET'), network('ECONNABORTED', true), network('ETIMEDOUT', true)]) {
			expect(decideRetry('POST', failure, 0, 5, half)).toEqual({ retry: false });
		}
	});

	it('retries any method when the connection was refused (nothing reached the service)', () => {
		expect(decideRetry('POST', network('ECONNREFUSED'), 0, 5, half)).toMatchObject({ retry: true });
		expect(isAmbiguous(network('ECONNREFUSED'))).toBe(false);
	});

	it.each(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'])('retries a POST whose connection was never made (%s)', (code) => {
		expect(decideRetry('POST', network(code), 0, 5, half)).toMatchObject({ retry: true });
		expect(isAmbiguous(network(code))).toBe(false);
	});

	it('retries any network failure of idempotent requests, even one it has no name for', () => {
		for (const method of ['GET', 'PUT', 'DELETE'] as HttpMethod[]) {
			for (const code of ['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ERR_UNKNOWN', 'ERR_STREAM_PREMATURE_CLOSE']) {
				expect(decideRetry(method, network(code), 0, 5, half)).toMatchObject({ retry: true });
			}
		}
		expect(decideRetry('POST', network('ERR_UNKNOWN'), 0, 5, half)).toEqual({ retry: false });
	});

	it('does not retry what a retry cannot cure: an unknown host, a bad URL, a rejected certificate', () => {
		for (const code of ['ENOTFOUND', 'ERR_INVALID_URL', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']) {
			expect(decideRetry('GET', network(code), 0, 5, half)).toEqual({ retry: false });
		}
	});

	it('does not retry other client errors', () => {
		for (const code of [400, 401, 403, 404, 409, 422]) {
			expect(decideRetry('GET', status(code), 0, 5, half)).toEqual({ retry: false });
		}
	});

	it('stops after maxRetries', () => {
		expect(decideRetry('GET', status(429), 4, 5, half)).toMatchObject({ retry: true });
		expect(decideRetry('GET', status(429), 5, 5, half)).toEqual({ retry: false });
		expect(decideRetry('GET', status(503), 0, 0, half)).toEqual({ retry: false });
	});

	it('backs off exponentially with jitter when the service gives no Retry-After', () => {
		const first = decideRetry('GET', status(429), 0, 5, half);
		const third = decideRetry('GET', status(429), 2, 5, half);
		expect(first).toEqual({ retry: true, delayMs: 750, rateLimited: true });
		expect(third).toEqual({ retry: true, delayMs: 3000, rateLimited: true });
	});
});

describe('backoffDelay', () => {
	it('stays between half and all of the exponential ceiling, capped at 30 s', () => {
		expect(backoffDelay(3, 500, () => 0)).toBe(2000);
		expect(backoffDelay(3, 500, () => 1)).toBe(4000);
		expect(backoffDelay(20, 500, () => 1)).toBe(30000);
	});
});

describe('parseRetryAfter', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');

	it('reads seconds', () => {
		expect(parseRetryAfter({ 'retry-after': '3' }, now)).toBe(3000);
		expect(parseRetryAfter({ 'retry-after': '0.25' }, now)).toBe(250);
	});

	it('reads an HTTP date', () => {
		expect(parseRetryAfter({ 'retry-after': 'Sun, 22 Nov 2026 10:00:07 GMT' }, now)).toBe(7000);
		expect(parseRetryAfter({ 'retry-after': 'Sun, 22 Nov 2026 09:59:00 GMT' }, now)).toBe(0);
	});

	it('falls back to X-RateLimit-Reset as epoch seconds or as seconds from now', () => {
		expect(parseRetryAfter({ 'x-ratelimit-reset': String(now / 1000 + 4) }, now)).toBe(4000);
		expect(parseRetryAfter({ 'x-ratelimit-reset': '2' }, now)).toBe(2000);
	});

	it('returns undefined when the service does not say', () => {
		expect(parseRetryAfter({}, now)).toBeUndefined();
		expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
	});
});
