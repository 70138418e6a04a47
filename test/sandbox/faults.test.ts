import axios, { AxiosError } from 'axios';
import { performance } from 'node:perf_hooks';

import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

/** The network error code of a request that got no HTTP answer. */
async function networkError(request: Promise<unknown>): Promise<string | undefined> {
	try {
		await request;
	} catch (error) {
		return (error as AxiosError).code;
	}
	throw new Error('the request got an answer');
}

describe('random faults', () => {
	it('errorRate 1: every API request answers 500 with the JSON error body; admin routes are untouched', async () => {
		await sandbox.admin.setFaults({ errorRate: 1 });
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(500);
		expect(response.data).toEqual({ success: false, error: { code: 'server_error', message: expect.any(String) } });
		expect((await sandbox.admin.health()).ok).toBe(true);
		await sandbox.admin.clearFaults();
		expect((await sandbox.api.get('/contacts')).status).toBe(200);
	});

	it('errorStatus and errorBody choose the answer', async () => {
		await sandbox.admin.setFaults({ errorRate: 1, errorStatus: 503, errorBody: 'html' });
		const html = await sandbox.api.get('/contacts');
		expect(html.status).toBe(503);
		expect(html.headers['content-type']).toMatch(/^text\/html/);
		expect(html.data).toContain('<title>503 Service Unavailable</title>');
		await sandbox.admin.setFaults({ errorBody: 'empty' });
		const empty = await sandbox.api.get('/contacts', { responseType: 'text' });
		expect(empty.status).toBe(503);
		expect(empty.data).toBe('');
	});

	it('a 5xx on a write is after the commit by default: the contact exists', async () => {
		await sandbox.admin.setFaults({ errorRate: 1 });
		const response = await sandbox.api.post('/contacts', { first_name: 'Ghost' });
		expect(response.status).toBe(500);
		await sandbox.admin.clearFaults();
		expect((await sandbox.admin.records('contacts')).map((c) => c.first_name)).toEqual(['Ghost']);
		const [entry] = await sandbox.admin.requests();
		expect(entry).toMatchObject({ method: 'POST', path: '/contacts', status: 500, fault: { kind: 'status', source: 'random', afterCommit: true, appStatus: 201 } });
	});

	it("faultTiming 'before' fails the write without committing it", async () => {
		await sandbox.admin.setFaults({ errorRate: 1, faultTiming: 'before' });
		expect((await sandbox.api.post('/contacts', { first_name: 'Nobody' })).status).toBe(500);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
		expect((await sandbox.admin.requests())[0].fault).toEqual({ kind: 'status', source: 'random', afterCommit: false });
	});

	it("faultTiming 'after' commits even a GET's side-free answer and still fails it", async () => {
		await sandbox.admin.setFaults({ errorRate: 1, errorStatus: 502, faultTiming: 'after' });
		expect((await sandbox.api.get('/contacts')).status).toBe(502);
		expect((await sandbox.admin.requests())[0].fault).toMatchObject({ afterCommit: true, appStatus: 200 });
	});

	it('dropRate 1 closes the connection without an answer; a dropped write was committed', async () => {
		await sandbox.admin.setFaults({ dropRate: 1 });
		expect(await networkError(sandbox.api.get('/contacts'))).toBe('ECONNRESET');
		expect(await networkError(sandbox.api.post('/contacts', { first_name: 'Dropped' }))).toBe('ECONNRESET');
		await sandbox.admin.clearFaults();
		expect((await sandbox.admin.records('contacts')).map((c) => c.first_name)).toEqual(['Dropped']);
		const log = await sandbox.admin.requests();
		expect(log.map((e) => [e.status, e.fault?.afterCommit])).toEqual([
			[null, false],
			[null, true],
		]);
	});

	it('nonJsonRate 1 answers an HTML 502 page', async () => {
		await sandbox.admin.setFaults({ nonJsonRate: 1 });
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(502);
		expect(response.headers['content-type']).toMatch(/^text\/html/);
		expect(response.data).toMatch(/^<html>/);
	});

	it('latencyMs delays every answer by at least that long', async () => {
		await sandbox.admin.setFaults({ latencyMs: 150 });
		const started = performance.now();
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(200);
		expect(performance.now() - started).toBeGreaterThanOrEqual(145);
	});

	it('shows the settings and rejects bad values with 422', async () => {
		await sandbox.admin.setFaults({ errorRate: 0.25, dropRate: 0.1 });
		expect(await sandbox.admin.faults()).toEqual({
			rateLimit: null,
			errorRate: 0.25,
			errorStatus: 500,
			errorBody: 'json',
			faultTiming: null,
			dropRate: 0.1,
			latencyMs: 0,
			nonJsonRate: 0,
			visibleAfterMs: 0,
			queue: [],
		});
		const bad = await axios.put(`${sandbox.url}/__sandbox/faults`, { errorRate: 2, errorBody: 'xml' }, { validateStatus: () => true });
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.data.error.fields).sort()).toEqual(['errorBody', 'errorRate']);
	});
});

describe('fault queue', () => {
	it('fails exactly the next matching requests, then lets them through', async () => {
		await sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 503 }, times: 2 });
		expect((await sandbox.api.get('/contacts')).status).toBe(200);
		expect((await sandbox.api.post('/contacts', { first_name: 'A' })).status).toBe(503);
		expect((await sandbox.api.post('/contacts', { first_name: 'B' })).status).toBe(503);
		expect((await sandbox.api.post('/contacts', { first_name: 'C' })).status).toBe(201);
		expect((await sandbox.admin.faults()).queue).toEqual([]);
		// A 5xx on a write defaults to after the commit.
		expect((await sandbox.admin.records('contacts')).map((c) => c.first_name)).toEqual(['A', 'B', 'C']);
	});

	it('matches a path and everything below it, not a longer name', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.queueFault({ match: { path: '/contacts' }, fault: { kind: 'status', status: 500 }, times: 5 });
		expect((await sandbox.api.get('/invoices')).status).toBe(200);
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).status).toBe(500);
		expect((await sandbox.api.get('/contactsx')).status).toBe(404);
		expect((await sandbox.admin.faults()).queue[0].remaining).toBe(4);
	});

	it('accepts the path with its /api/v1 prefix too', async () => {
		const entry = await sandbox.admin.queueFault({ match: { path: '/api/v1/products' }, fault: { kind: 'status' } });
		expect(entry.match.path).toBe('/products');
		expect((await sandbox.api.get('/products')).status).toBe(500);
	});

	it('afterCommit false fails a write without committing it', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 500, afterCommit: false } });
		expect((await sandbox.api.post('/contacts', { first_name: 'Never' })).status).toBe(500);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('rateLimit: 429 with the given Retry-After, nothing committed', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: 7 } });
		const response = await sandbox.api.post('/contacts', { first_name: 'Later' });
		expect(response.status).toBe(429);
		expect(response.headers['retry-after']).toBe('7');
		expect(response.data.error.code).toBe('rate_limited');
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('rateLimit with an HTTP-date Retry-After, or none at all', async () => {
		const date = new Date(Date.now() + 3000).toUTCString();
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: date } });
		await sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: null } });
		expect((await sandbox.api.get('/contacts')).headers['retry-after']).toBe(date);
		const bare = await sandbox.api.get('/contacts');
		expect(bare.status).toBe(429);
		expect(bare.headers['retry-after']).toBeUndefined();
	});

	it('html: a 502 proxy page', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'html' } });
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(502);
		expect(response.data).toContain('502 Bad Gateway');
	});

	it('status with a body of another shape, or plain text', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 422, body: { errors: [{ field: 'email', message: 'taken' }] } } });
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 500, body: 'text' } });
		const odd = await sandbox.api.get('/contacts');
		expect(odd.status).toBe(422);
		expect(odd.data).toEqual({ errors: [{ field: 'email', message: 'taken' }] });
		const text = await sandbox.api.get('/contacts');
		expect(text.headers['content-type']).toMatch(/^text\/plain/);
		expect(text.data).toBe('Internal Server Error');
	});

	it('drop: before the commit on a GET, after it on a POST', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'drop' }, times: 2 });
		expect(await networkError(sandbox.api.get('/contacts'))).toBe('ECONNRESET');
		expect(await networkError(sandbox.api.post('/contacts', { first_name: 'Twice?' }))).toBe('ECONNRESET');
		expect((await sandbox.admin.records('contacts')).map((c) => c.first_name)).toEqual(['Twice?']);
	});

	it('latency: answers normally, at least delayMs later', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'latency', delayMs: 120 } });
		const started = performance.now();
		expect((await sandbox.api.post('/contacts', { first_name: 'Slow' })).status).toBe(201);
		expect(performance.now() - started).toBeGreaterThanOrEqual(115);
		expect((await sandbox.admin.requests())[0].fault).toEqual({ kind: 'latency', source: 'queue', afterCommit: false });
	});

	it('headers: any single answer, with the headers a test needs, set over the API\'s own', async () => {
		await sandbox.admin.setFaults({ rateLimit: { limit: 100, windowMs: 60_000 } });
		const reset = String(Math.ceil(Date.now() / 1000) + 3600);
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 503, headers: { 'X-RateLimit-Reset': reset, 'X-Request-Id': 'req-1' } } });
		await sandbox.admin.queueFault({ fault: { kind: 'latency', delayMs: 0, headers: { 'X-RateLimit-Remaining': '0' } } });
		const failed = await sandbox.api.get('/contacts');
		expect(failed.status).toBe(503);
		expect(failed.headers['x-ratelimit-reset']).toBe(reset);
		expect(failed.headers['x-request-id']).toBe('req-1');
		const answered = await sandbox.api.get('/contacts');
		expect(answered.status).toBe(200);
		expect(answered.headers['x-ratelimit-remaining']).toBe('0');
		expect(answered.headers['x-ratelimit-limit']).toBe('100');
		const bad = await axios.post(`${sandbox.url}/__sandbox/faults/queue`, { fault: { kind: 'status', headers: { 'Bad Name': 'x' } } }, { validateStatus: () => true });
		expect(bad.status).toBe(422);
		expect(bad.data.error.fields).toEqual({ 'fault.headers': [expect.any(String)] });
	});

	it('takes precedence over random faults', async () => {
		await sandbox.admin.setFaults({ errorRate: 1 });
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 418 } });
		expect((await sandbox.api.get('/contacts')).status).toBe(418);
		expect((await sandbox.api.get('/contacts')).status).toBe(500);
	});

	it('can be cleared; bad entries are refused with 422', async () => {
		await sandbox.admin.queueFault({ fault: { kind: 'drop' }, times: 3 });
		expect((await sandbox.admin.clearFaultQueue()).queue).toEqual([]);
		expect((await sandbox.api.get('/contacts')).status).toBe(200);
		const bad = await axios.post(`${sandbox.url}/__sandbox/faults/queue`, { fault: { kind: 'explode' }, times: 0 }, { validateStatus: () => true });
		expect(bad.status).toBe(422);
	});
});

describe('restart', () => {
	it('refuses connections while down, then serves the same state on the same port', async () => {
		await sandbox.admin.seed({ contacts: 5 });
		const before = await sandbox.admin.records('contacts');
		expect(await sandbox.admin.restart(1500)).toEqual({ restarting: true, downMs: 1500 });
		const fresh = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${sandbox.token}` } });
		expect(['ECONNREFUSED', 'ECONNRESET']).toContain(await networkError(fresh.get('/contacts')));
		await sandbox.admin.waitUntilUp();
		const after = await sandbox.api.get('/contacts');
		expect(after.status).toBe(200);
		expect(after.data.data).toEqual(before);
	});

	it('restarts in-process too', async () => {
		await createContact(sandbox.api);
		await sandbox.restart(50);
		expect((await sandbox.api.get('/contacts')).data.meta.total).toBe(1);
	});
});
