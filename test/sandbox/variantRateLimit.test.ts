import type { AxiosResponse } from 'axios';

import { useTestSandbox } from '../../tooling/harness/sandbox';

const sandbox = useTestSandbox();

const header = (response: AxiosResponse, name: string): string | undefined => response.headers[name.toLowerCase()] as string | undefined;

/** Seconds from now until an epoch-seconds header value. */
const secondsUntilEpoch = (value: string | undefined): number => Number(value) - Date.now() / 1000;

/** A GET of /contacts with the client's clock read before and after it, to bound times the answer names. */
async function timedGet(): Promise<{ response: AxiosResponse; asked: number; answered: number }> {
	const asked = Date.now();
	const response = await sandbox.api.get('/contacts');
	return { response, asked, answered: Date.now() };
}

describe('gateway-headers', () => {
	beforeEach(() => sandbox.admin.setVariants(['gateway-headers']));

	it('puts an hour-long quota on every answer, counting down', async () => {
		const first = await sandbox.api.get('/contacts');
		const second = await sandbox.api.get('/contacts/999');
		expect(second.status).toBe(404);
		expect(header(first, 'X-RateLimit-Limit')).toBe('100000');
		expect(Number(header(second, 'X-RateLimit-Remaining'))).toBe(Number(header(first, 'X-RateLimit-Remaining')) - 1);
		// The window opened with the first request: its reset is (nearly) an hour away, far beyond any retry.
		expect(secondsUntilEpoch(header(second, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
		expect(secondsUntilEpoch(header(second, 'X-RateLimit-Reset'))).toBeLessThanOrEqual(3601);
	});

	it.each([
		['a JSON 500 before the API', { kind: 'status', status: 500 }, 'GET'],
		['an HTML 502 page', { kind: 'html' }, 'GET'],
		['a 503 after a committed write', { kind: 'status', status: 503 }, 'POST'],
	] as const)('carries it on %s too', async (_label, fault, method) => {
		await sandbox.admin.queueFault({ fault });
		const response = method === 'GET' ? await sandbox.api.get('/contacts') : await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect(response.status).toBeGreaterThanOrEqual(500);
		expect(header(response, 'X-RateLimit-Limit')).toBe('100000');
		expect(secondsUntilEpoch(header(response, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
		expect(header(response, 'Retry-After')).toBeUndefined();
	});

	it('on random faults as well', async () => {
		await sandbox.admin.setFaults({ errorRate: 1, errorStatus: 502, errorBody: 'html' });
		const response = await sandbox.api.get('/products');
		expect(response.status).toBe(502);
		expect(secondsUntilEpoch(header(response, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
	});

	it("leaves the ERP's own 429 its own short Retry-After", async () => {
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 20_000 } });
		await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(Number(header(refused, 'Retry-After'))).toBeLessThanOrEqual(20);
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeGreaterThan(3000);
	});

	it('is not there by default: an injected fault carries no rate-limit headers', async () => {
		await sandbox.admin.setVariants([]);
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 500 } });
		expect(header(await sandbox.api.get('/contacts'), 'X-RateLimit-Reset')).toBeUndefined();
	});
});

describe('ietf-ratelimit', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['ietf-ratelimit']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 2, windowMs: 30_000 } });
	});

	it('reports RateLimit-Limit/-Remaining/-Reset (seconds from now) instead of the X- headers', async () => {
		const response = await sandbox.api.get('/contacts');
		expect(header(response, 'RateLimit-Limit')).toBe('2');
		expect(header(response, 'RateLimit-Remaining')).toBe('1');
		expect(Number(header(response, 'RateLimit-Reset'))).toBeGreaterThanOrEqual(1);
		expect(Number(header(response, 'RateLimit-Reset'))).toBeLessThanOrEqual(30);
		expect(Object.keys(response.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
	});

	it('answers a 429 with Retry-After as an HTTP date no earlier than the reset', async () => {
		await sandbox.api.get('/contacts');
		await sandbox.api.get('/contacts');
		const { response: refused, asked, answered } = await timedGet();
		expect(refused.status).toBe(429);
		const retryAfter = header(refused, 'Retry-After') as string;
		expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		expect(Date.parse(retryAfter)).toBeGreaterThanOrEqual(asked + Number(header(refused, 'RateLimit-Reset')) * 1000);
		expect(Date.parse(retryAfter)).toBeLessThanOrEqual(answered + 32_000);
	});

	it('gives a queued 429 without its own wait an HTTP date too', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit' } });
		const { response: refused, asked, answered } = await timedGet();
		expect(refused.status).toBe(429);
		const until = Date.parse(header(refused, 'Retry-After') as string);
		expect(until).toBeGreaterThan(asked);
		expect(until).toBeLessThanOrEqual(answered + 2000);
	});
});

describe('silent-rate-limit', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['silent-rate-limit']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
	});

	it('still limits, but says nothing of it: no rate-limit header on an answer or on the 429, no Retry-After', async () => {
		const allowed = await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect([allowed.status, refused.status]).toEqual([200, 429]);
		for (const response of [allowed, refused]) {
			expect(Object.keys(response.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual([]);
		}
	});
});

describe('retry-after-only', () => {
	beforeEach(async () => {
		await sandbox.admin.setVariants(['retry-after-only']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
	});

	it('names nothing but the wait of its 429, in Retry-After (whole seconds up to the reset): no count or reset header', async () => {
		const allowed = await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect([allowed.status, refused.status]).toEqual([200, 429]);
		expect(Object.keys(allowed.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual([]);
		expect(Object.keys(refused.headers).filter((name) => /ratelimit|retry-after/.test(name))).toEqual(['retry-after']);
		expect(Number(header(refused, 'Retry-After'))).toBeGreaterThanOrEqual(29);
		expect(Number(header(refused, 'Retry-After'))).toBeLessThanOrEqual(30);
	});
});

describe('no-retry-after', () => {
	beforeEach(() => sandbox.admin.setVariants(['no-retry-after']));

	it('answers a 429 without Retry-After, naming the reset in X-RateLimit-Reset (epoch seconds)', async () => {
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 30_000 } });
		await sandbox.api.get('/contacts');
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(header(refused, 'Retry-After')).toBeUndefined();
		expect(header(refused, 'X-RateLimit-Remaining')).toBe('0');
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeGreaterThan(0);
		expect(secondsUntilEpoch(header(refused, 'X-RateLimit-Reset'))).toBeLessThanOrEqual(31);
	});

	it('a queued 429 without its own wait names a reset one second on', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit' } });
		const { response: refused, asked, answered } = await timedGet();
		expect(header(refused, 'Retry-After')).toBeUndefined();
		const reset = Number(header(refused, 'X-RateLimit-Reset')) * 1000;
		expect(reset).toBeGreaterThan(asked);
		expect(reset).toBeLessThanOrEqual(answered + 2000);
	});

	it('a queued 429 with an explicit retryAfter still sends it', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: 5 } });
		expect(header(await sandbox.api.get('/contacts'), 'Retry-After')).toBe('5');
	});
});
