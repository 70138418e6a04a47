import axios from 'axios';

import { RateLimiter } from '../../sandbox/rateLimit';
import { startTestSandbox, waitFor, type TestSandbox } from '../../tooling/harness/sandbox';

describe('rate limiting (fixed window per token)', () => {
	let sandbox: TestSandbox;

	beforeEach(async () => {
		sandbox = await startTestSandbox({ rateLimit: { limit: 3, windowMs: 60_000 } });
	});
	afterEach(() => sandbox.close());

	it('reports the window on every answer and answers 429 with Retry-After past the limit', async () => {
		// The window opens when the first request arrives: between these two readings of the clock.
		const sentSeconds = Date.now() / 1000;
		const answers = [await sandbox.api.get('/contacts')];
		const answeredSeconds = Date.now() / 1000;
		for (let i = 0; i < 3; i++) answers.push(await sandbox.api.get('/contacts'));
		expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
		expect(answers.map((r) => r.headers['x-ratelimit-limit'])).toEqual(['3', '3', '3', '3']);
		expect(answers.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
		const reset = Number(answers[0].headers['x-ratelimit-reset']);
		expect(reset).toBeGreaterThanOrEqual(Math.ceil(sentSeconds + 60));
		expect(reset).toBeLessThanOrEqual(Math.ceil(answeredSeconds + 60));
		const refused = answers[3];
		expect(refused.data).toEqual({ success: false, error: { code: 'rate_limited', message: expect.any(String) } });
		expect(refused.headers['retry-after']).toMatch(/^\d+$/);
		expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
		expect(answers[0].headers['retry-after']).toBeUndefined();
	});

	it('does not process a refused request', async () => {
		for (let i = 0; i < 3; i++) await sandbox.api.get('/contacts');
		const refused = await sandbox.api.post('/contacts', { first_name: 'Late' });
		expect(refused.status).toBe(429);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('keeps one window per token; admin routes are never limited', async () => {
		for (let i = 0; i < 3; i++) await sandbox.api.get('/contacts');
		expect((await sandbox.api.get('/contacts')).status).toBe(429);
		const readOnly = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${sandbox.readOnlyToken}` }, validateStatus: () => true });
		expect((await readOnly.get('/contacts')).status).toBe(200);
		for (let i = 0; i < 10; i++) await sandbox.admin.records('contacts');
		expect((await sandbox.admin.health()).ok).toBe(true);
	});

	it('rounds Retry-After up to whole seconds and opens a new window when the old one ends', async () => {
		// Any refusal in a window of one second is due within that second: Retry-After 1, however late it comes.
		// Two requests land in one window unless the machine stalls for a second; then a later pair will.
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 1000 } });
		let refused;
		for (let i = 0; i < 50 && !refused; i++) {
			const response = await sandbox.api.get('/contacts');
			if (response.status === 429) refused = response;
		}
		expect(refused?.headers['retry-after']).toBe('1');
		await waitFor(async () => (await sandbox.api.get('/contacts')).status === 200);
	});

	it('can be switched off and restored to the start configuration', async () => {
		expect((await sandbox.admin.setFaults({ rateLimit: null })).rateLimit).toBeNull();
		for (let i = 0; i < 5; i++) {
			const response = await sandbox.api.get('/contacts');
			expect(response.status).toBe(200);
			expect(response.headers['x-ratelimit-limit']).toBeUndefined();
		}
		expect((await sandbox.admin.clearFaults()).rateLimit).toEqual({ limit: 3, windowMs: 60_000 });
		expect((await sandbox.api.get('/contacts')).headers['x-ratelimit-remaining']).toBe('2');
	});

	it('defaults to 600 requests per 60 s', async () => {
		const defaults = await startTestSandbox({ rateLimit: undefined });
		try {
			const response = await defaults.api.get('/contacts');
			expect(response.headers['x-ratelimit-limit']).toBe('600');
			expect(response.headers['x-ratelimit-remaining']).toBe('599');
			expect((await defaults.admin.faults()).rateLimit).toEqual({ limit: 600, windowMs: 60_000 });
		} finally {
			await defaults.close();
		}
	});
});

describe('RateLimiter window arithmetic', () => {
	it('rounds Retry-After up and resets the window exactly at its end', () => {
		const limiter = new RateLimiter({ limit: 2, windowMs: 1500 });
		expect(limiter.hit('full', 10_000).allowed).toBe(true);
		expect(limiter.hit('full', 10_050).headers['X-RateLimit-Remaining']).toBe('0');
		const refused = limiter.hit('full', 10_100);
		expect(refused.allowed).toBe(false);
		expect(refused.headers['Retry-After']).toBe('2');
		expect(refused.headers['X-RateLimit-Reset']).toBe('12');
		expect(limiter.hit('full', 11_499).headers['Retry-After']).toBe('1');
		expect(limiter.hit('readonly', 11_499).allowed).toBe(true);
		const next = limiter.hit('full', 11_500);
		expect(next.allowed).toBe(true);
		expect(next.headers['X-RateLimit-Remaining']).toBe('1');
	});
});
