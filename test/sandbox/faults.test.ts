import { performance } from 'node:perf_hooks';
import axios, { type AxiosError, type AxiosResponse } from 'axios';

import { Faults } from '../../sandbox/faults';
import { RateLimiter } from '../../sandbox/rateLimit';
import { startTestSandbox, type TestSandbox, useTestSandbox, waitFor } from '../../tooling/harness/sandbox';
import { createContact, createInvoice } from './fixtures';

// Fault injection's contract, which the node and reliability tests build their scenarios on: what each fault does
// to the answer and to the store, the queue's matching, the seeded drawing, the rate limit, the not-yet-visible
// fault and the restart.

const sandbox = useTestSandbox();

/** The answer, or the network error code of a request that got none. */
async function outcome(request: Promise<AxiosResponse>): Promise<AxiosResponse | string | undefined> {
	try {
		return await request;
	} catch (error) {
		return (error as AxiosError).code;
	}
}
const secondsFromNow = (epoch: unknown) => Number(epoch) - Date.now() / 1000;
const names = async () => (await sandbox.admin.records('contacts')).map((c) => c.first_name);
const write = () => sandbox.api.post('/contacts', { first_name: 'Ghost' });
const read = () => sandbox.api.get('/contacts');
const answered = (status: number, contentType: RegExp, data: unknown) => expect.objectContaining({ status, headers: expect.objectContaining({ 'content-type': expect.stringMatching(contentType) }), data });
const JSON_500 = answered(500, /^application\/json/, { success: false, error: { code: 'server_error', message: expect.any(String) } });
const HTML_502 = answered(502, /^text\/html/, expect.stringContaining('502 Bad Gateway'));

describe('what a fault does', () => {
	it.each<[string, () => Promise<unknown>, () => Promise<AxiosResponse>, unknown, string[], object]>([
		['errorRate 1: a JSON 500, after the commit of a write', () => sandbox.admin.setFaults({ errorRate: 1 }), write, JSON_500, ['Ghost'], { kind: 'status', source: 'random', afterCommit: true, appStatus: 201 }],
		["faultTiming 'before': the write not committed", () => sandbox.admin.setFaults({ errorRate: 1, faultTiming: 'before' }), write, JSON_500, [], { afterCommit: false }],
		["faultTiming 'after': even a read's answer made first, then failed", () => sandbox.admin.setFaults({ errorRate: 1, faultTiming: 'after' }), read, JSON_500, [], { afterCommit: true, appStatus: 200 }],
		['errorStatus and errorBody html', () => sandbox.admin.setFaults({ errorRate: 1, errorStatus: 503, errorBody: 'html' }), read, answered(503, /^text\/html/, expect.stringContaining('<title>503 Service Unavailable</title>')), [], { kind: 'status', afterCommit: false }],
		['dropRate 1: no answer; a dropped write was committed', () => sandbox.admin.setFaults({ dropRate: 1 }), write, 'ECONNRESET', ['Ghost'], { kind: 'drop', afterCommit: true }],
		['dropRate 1 on a read: before the commit', () => sandbox.admin.setFaults({ dropRate: 1 }), read, 'ECONNRESET', [], { kind: 'drop', afterCommit: false }],
		['nonJsonRate 1: an HTML 502 page', () => sandbox.admin.setFaults({ nonJsonRate: 1 }), read, answered(502, /^text\/html/, expect.stringMatching(/^<html>/)), [], { kind: 'html' }],
		['queued status, afterCommit false', () => sandbox.admin.queueFault({ fault: { kind: 'status', status: 500, afterCommit: false } }), write, JSON_500, [], { source: 'queue', afterCommit: false }],
		['queued 503 on a write: after the commit by default', () => sandbox.admin.queueFault({ fault: { kind: 'status', status: 503 } }), write, expect.objectContaining({ status: 503 }), ['Ghost'], { afterCommit: true }],
		['queued drop on a write', () => sandbox.admin.queueFault({ fault: { kind: 'drop' } }), write, 'ECONNRESET', ['Ghost'], { kind: 'drop' }],
		['queued html', () => sandbox.admin.queueFault({ fault: { kind: 'html' } }), read, HTML_502, [], { kind: 'html' }],
		['queued status with a body of another shape', () => sandbox.admin.queueFault({ fault: { kind: 'status', status: 422, body: { errors: [{ field: 'email' }] } } }), read, answered(422, /json/, { errors: [{ field: 'email' }] }), [], {}],
		['queued status with a text body', () => sandbox.admin.queueFault({ fault: { kind: 'status', status: 500, body: 'text' } }), read, answered(500, /^text\/plain/, 'Internal Server Error'), [], {}],
		['queued rateLimit: 429 with its Retry-After, nothing committed', () => sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: 7 } }), write, expect.objectContaining({ status: 429, headers: expect.objectContaining({ 'retry-after': '7' }), data: expect.objectContaining({ error: expect.objectContaining({ code: 'rate_limited' }) }) }), [], { kind: 'rateLimit' }],
		['queued rateLimit without a wait: no Retry-After', () => sandbox.admin.queueFault({ fault: { kind: 'rateLimit', retryAfter: null } }), read, expect.objectContaining({ status: 429, headers: expect.not.objectContaining({ 'retry-after': expect.anything() }) }), [], {}],
		['queued headers, set over the API\'s own', () => sandbox.admin.queueFault({ fault: { kind: 'latency', delayMs: 0, headers: { 'X-Request-Id': 'req-1' } } }), write, expect.objectContaining({ status: 201, headers: expect.objectContaining({ 'x-request-id': 'req-1' }) }), ['Ghost'], { kind: 'latency' }],
	])('%s', async (_name, arrange, request, answer, stored, logged) => {
		await arrange();
		expect(await outcome(request())).toEqual(answer);
		await sandbox.admin.clearFaults();
		expect(await names()).toEqual(stored);
		expect((await sandbox.admin.requests())[0].fault).toMatchObject(logged);
	});

	it('errorBody empty: no body; the admin routes are never faulted', async () => {
		await sandbox.admin.setFaults({ errorRate: 1, errorBody: 'empty' });
		expect((await sandbox.api.get('/contacts', { responseType: 'text' })).data).toBe('');
		expect((await sandbox.admin.health()).ok).toBe(true);
	});

	it('latency, random or queued: the answer as usual, no sooner than the delay', async () => {
		await sandbox.admin.setFaults({ latencyMs: 100 });
		await sandbox.admin.queueFault({ fault: { kind: 'latency', delayMs: 200 } });
		for (const delay of [200, 100]) {
			const started = performance.now();
			expect((await read()).status).toBe(200);
			expect(performance.now() - started).toBeGreaterThanOrEqual(delay - 5);
		}
	});

	it('shows the settings, and refuses bad values and bad queue entries with 422 per field', async () => {
		expect(await sandbox.admin.setFaults({ errorRate: 0.25 })).toMatchObject({ errorRate: 0.25, errorStatus: 500, errorBody: 'json', dropRate: 0, latencyMs: 0, visibleAfterMs: 0, queue: [] });
		const put = await axios.put(`${sandbox.url}/__sandbox/faults`, { errorRate: 2, errorBody: 'xml', visibleAfterMs: -1, seed: 1.5 }, { validateStatus: () => true });
		expect(Object.keys(put.data.error.fields).sort()).toEqual(['errorBody', 'errorRate', 'seed', 'visibleAfterMs']);
		for (const entry of [{ fault: { kind: 'explode' } }, { fault: { kind: 'drop' }, times: 0 }, { fault: { kind: 'status', headers: { 'Bad Name': 'x' } } }]) {
			expect((await axios.post(`${sandbox.url}/__sandbox/faults/queue`, entry, { validateStatus: () => true })).status).toBe(422);
		}
	});
});

describe('the fault queue', () => {
	it('fails exactly the next matching requests (a path and what is below it, with or without /api/v1), then lets them through', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/api/v1/contacts' }, fault: { kind: 'status', status: 503 }, times: 2 });
		const statuses = [];
		for (const path of ['/invoices', '/contactsx', `/contacts/${contact.id}`, '/contacts', '/contacts']) statuses.push((await sandbox.api.get(path)).status);
		expect((await sandbox.api.post('/contacts', { first_name: 'B' })).status).toBe(201);
		expect(statuses).toEqual([200, 404, 503, 503, 200]);
		expect((await sandbox.admin.faults()).queue).toEqual([]);
	});

	it('goes before random faults, and can be cleared', async () => {
		await sandbox.admin.setFaults({ errorRate: 1 });
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 418 } });
		expect([(await read()).status, (await read()).status]).toEqual([418, 500]);
		await sandbox.admin.queueFault({ fault: { kind: 'drop' }, times: 3 });
		expect((await sandbox.admin.clearFaultQueue()).queue).toEqual([]);
	});
});

describe('seeded random faults', () => {
	/** 40 distinct requests, each sent three times (a first attempt and two retries). */
	const requests = Array.from({ length: 40 }, (_, i): [string, string, string] => (i % 2 ? ['GET', `/contacts/${i}`, ''] : ['POST', '/contacts', `{"n":${i}}`])).flatMap((r) => [r, r, r]);

	function drawn(faults: Faults, order = requests): Map<string, string[]> {
		const seen = new Map<string, string[]>();
		for (const [method, path, body] of order) {
			const key = `${method} ${path} ${body}`;
			seen.set(key, [...(seen.get(key) ?? []), faults.pick(method, path, body)?.kind ?? 'none']);
		}
		return seen;
	}
	const seeded = (seed: number) => {
		const faults = new Faults();
		faults.update({ dropRate: 0.2, nonJsonRate: 0.2, errorRate: 0.2, seed });
		return faults;
	};

	it('the same seed gives the same faults to the same requests in any order; another seed others; a retry is drawn anew', () => {
		const first = drawn(seeded(1234));
		expect(drawn(seeded(1234), [...requests].reverse())).toEqual(first);
		expect(new Set([...first.values()].flat())).toEqual(new Set(['drop', 'html', 'none', 'status']));
		expect(drawn(seeded(1235))).not.toEqual(first);
		expect([...first.values()].some(([one, two]) => one !== two)).toBe(true);
		const again = seeded(1234);
		drawn(again);
		again.update({ seed: 1234 });
		expect(drawn(again)).toEqual(first);
	});

	it('over HTTP: concurrent requests meet the same faults again once the seed is set again; a reset clears it', async () => {
		const struck = async (order: number[]) => {
			const answers = await Promise.all(order.map(async (id) => ({ id, status: (await sandbox.api.get(`/contacts/${id}`)).status })));
			return answers.filter((a) => a.status === 500).map((a) => a.id).sort((a, b) => a - b);
		};
		const ids = Array.from({ length: 40 }, (_, i) => i + 1);
		await sandbox.admin.setFaults({ errorRate: 0.5, seed: 4242 });
		const first = await struck(ids);
		await sandbox.admin.setFaults({ seed: 4242 });
		expect(await struck([...ids].reverse())).toEqual(first);
		expect(first.length).toBeGreaterThan(0);
		expect(first.length).toBeLessThan(40);
		await sandbox.admin.reset();
		expect((await sandbox.admin.faults()).seed).toBeUndefined();
	});
});

describe('the rate limit (a fixed window per token)', () => {
	let limited: TestSandbox;
	beforeEach(async () => {
		limited = await startTestSandbox({ rateLimit: { limit: 3, windowMs: 60_000 } });
	});
	afterEach(() => limited.close());

	it('counts down on every answer, refuses past the limit with 429 and Retry-After, unprocessed; one window per token; admin never limited', async () => {
		const answers = [];
		for (let i = 0; i < 3; i++) answers.push(await limited.api.get('/contacts'));
		answers.push(await limited.api.post('/contacts', { first_name: 'Late' }));
		expect(answers.map((r) => [r.status, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']])).toEqual([[200, '3', '2'], [200, '3', '1'], [200, '3', '0'], [429, '3', '0']]);
		expect(answers[3].data).toEqual({ success: false, error: { code: 'rate_limited', message: expect.any(String) } });
		expect(Number(answers[3].headers['retry-after'])).toBeGreaterThanOrEqual(59);
		expect(secondsFromNow(answers[0].headers['x-ratelimit-reset'])).toBeGreaterThan(55);
		expect(await limited.admin.records('contacts')).toEqual([]);
		const readOnly = axios.create({ baseURL: limited.baseUrl, headers: { Authorization: `Bearer ${limited.readOnlyToken}` }, validateStatus: () => true });
		expect((await readOnly.get('/contacts')).status).toBe(200);
		for (let i = 0; i < 5; i++) expect((await limited.admin.health()).ok).toBe(true);
	});

	it('is switched off by rateLimit null, and back to the start configuration by clearFaults', async () => {
		await limited.admin.setFaults({ rateLimit: null });
		for (let i = 0; i < 4; i++) expect((await limited.api.get('/contacts')).headers['x-ratelimit-limit']).toBeUndefined();
		expect((await limited.admin.clearFaults()).rateLimit).toEqual({ limit: 3, windowMs: 60_000 });
	});

	it('defaults to 600 requests per 60 s (the demo and the CLI keep it)', async () => {
		const defaults = await startTestSandbox({ rateLimit: undefined });
		try {
			expect((await defaults.api.get('/contacts')).headers['x-ratelimit-remaining']).toBe('599');
			expect((await defaults.admin.faults()).rateLimit).toEqual({ limit: 600, windowMs: 60_000 });
		} finally {
			await defaults.close();
		}
	});

	it('rounds Retry-After up and opens the next window exactly at the end of the last', () => {
		const limiter = new RateLimiter({ limit: 2, windowMs: 1500 });
		limiter.hit('full', 10_000);
		limiter.hit('full', 10_050);
		expect(limiter.hit('full', 10_100).headers).toMatchObject({ 'Retry-After': '2', 'X-RateLimit-Reset': '12' });
		expect(limiter.hit('full', 11_499).headers['Retry-After']).toBe('1');
		expect(limiter.hit('full', 11_500)).toMatchObject({ allowed: true, headers: { 'X-RateLimit-Remaining': '1' } });
	});
});

it('restart: connections refused while down, then the same state on the same port; in-process too', async () => {
	await sandbox.admin.seed({ contacts: 5 });
	const before = await sandbox.admin.records('contacts');
	expect(await sandbox.admin.restart(1500)).toEqual({ restarting: true, downMs: 1500 });
	const fresh = axios.create({ baseURL: sandbox.baseUrl, headers: { Authorization: `Bearer ${sandbox.token}` } });
	expect(['ECONNREFUSED', 'ECONNRESET']).toContain(await outcome(fresh.get('/contacts')));
	await sandbox.admin.waitUntilUp();
	expect((await sandbox.api.get('/contacts')).data.data).toEqual(before);
	await sandbox.restart(50);
	expect((await sandbox.api.get('/contacts')).data.meta.total).toBe(5);
});

describe('the not-yet-visible fault (visibleAfterMs)', () => {
	/** Long enough never to pass during a test: what was written stays invisible until the faults are cleared. */
	const LONG = 600_000;
	const shown = async (path: string) => (await sandbox.api.get(path)).data;

	it('a new record is 404 and missing from lists until the delay has passed, while the write answers it at once', async () => {
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		const created = await sandbox.api.post('/contacts', { first_name: 'Late' });
		expect([created.status, created.data.data.first_name]).toEqual([201, 'Late']);
		expect([await shown('/contacts/1'), (await shown('/contacts')).data]).toEqual([{ success: false, error: { code: 'not_found', message: 'Contact 1 not found' } }, []]);
		expect(await names()).toEqual(['Late']);
		await sandbox.admin.clearFaults();
		expect((await shown('/contacts/1')).data.first_name).toBe('Late');
	});

	it('becomes visible by itself once the delay since the write has passed', async () => {
		await sandbox.admin.setFaults({ visibleAfterMs: 200 });
		await sandbox.api.post('/contacts', { first_name: 'Mia' });
		await waitFor(async () => (await sandbox.api.get('/contacts/1')).status === 200);
	});

	it('a changed invoice reads as before until the delay after the last write; writes see the current state; the sweep lags too', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-10' });
		const other = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-10' });
		for (const id of [invoice.id, other.id]) await sandbox.api.post(`/invoices/${id}/send`);
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data.status).toBe('paid');
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).status).toBe(422);
		expect((await sandbox.admin.sweep('2026-02-01')).overdue).toEqual([other.id]);
		expect([(await shown(`/invoices/${invoice.id}`)).data.status, (await shown('/invoices?status=paid')).data, (await shown(`/invoices/${other.id}`)).data.status]).toEqual(['sent', [], 'sent']);
		await sandbox.admin.clearFaults();
		expect((await shown('/invoices')).data.map((i: { status: string }) => i.status)).toEqual(['paid', 'overdue']);
	});

	it('two updates and a delete: readers keep the state before the first; a failed write and the untouched records do not lag', async () => {
		const [one, kept] = [await createContact(sandbox.api, { first_name: 'One' }), await createContact(sandbox.api, { first_name: 'Kept' })];
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		await sandbox.api.put(`/contacts/${one.id}`, { first_name: 'Two' });
		await sandbox.api.put(`/contacts/${one.id}`, { first_name: 'Three' });
		expect((await sandbox.api.put(`/contacts/${kept.id}`, { email: 'not-an-email' })).status).toBe(422);
		await sandbox.api.delete(`/contacts/${one.id}`);
		expect((await shown('/contacts')).data.map((c: { first_name: string }) => c.first_name)).toEqual(['One', 'Kept']);
		await sandbox.admin.clearFaults();
		expect((await shown('/contacts')).data.map((c: { first_name: string }) => c.first_name)).toEqual(['Kept']);
	});
});
