// Retries and waits of a request through ErpClient over a scripted HTTP helper, in fake time (`clock.sleeps` records
// every wait; a cancelled run's tests, first, on real time): which failures are sent again, the wait budget, and
// what a wait the ERP named declares.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import type { ErpRequest } from '../../../../nodes/shared/transport/types';
import { fakeContext, fakeTime, flush, json, networkError } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf } from './clientFor';

const anHourFromNow = (now: number) => String(Math.round(now / 1000) + 3600);

/** A context with n8n's cancel signal, on real time: a wait that is not cut short hangs the test. */
async function cancellable(responder: Responder, concurrency = 1) {
	const cancel = new AbortController();
	const { ctx, calls } = fakeContext(responder);
	Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
	const client = await ErpClient.create(ctx, { concurrency });
	return { client, calls, cancel };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
	return await promise.then(
		() => undefined,
		(error: unknown) => error,
	);
}

/** Answers like n8n's helper once the execution is cancelled: an error wrapping axios' CanceledError. */
function answerNeverButAbort(signal: AbortSignal): Promise<never> {
	return new Promise((_resolve, reject) => {
		signal.addEventListener('abort', () =>
			reject(Object.assign(new Error('canceled'), { cause: { code: 'ERR_CANCELED', name: 'CanceledError', message: 'canceled' } })),
		);
	});
}

describe('a cancelled execution (n8n’s abort signal)', () => {
	it('ends a back-off wait at once and sends nothing more', async () => {
		const { client, calls, cancel } = await cancellable(() => json(429, {}, { 'retry-after': '200' }));
		const failed = rejection(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, itemIndex: 1 }));
		while (calls.length === 0) await flush();
		cancel.abort();
		const error = await failed;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toBe('The execution was cancelled: no further request was sent to the ERP');
		expect(calls).toHaveLength(1);
	});

	it('ends the wait of a request held at the shared 429 gate', async () => {
		const { client, calls, cancel } = await cancellable(() => json(429, {}, { 'retry-after': '200' }), 2);
		const first = rejection(client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } }));
		while (calls.length === 0) await flush();
		const second = rejection(client.request({ method: 'GET', path: '/contacts/2', doing: { action: 'read contact 2', noun: 'contact', id: 2 } }));
		await flush();
		cancel.abort();
		expect(await first).toBeInstanceOf(NodeOperationError);
		expect(await second).toBeInstanceOf(NodeOperationError);
		expect(calls).toHaveLength(1);
	});

	it.each(['GET', 'POST'] as const)('is not taken for a network failure when it breaks off a %s on the wire', async (method) => {
		const cancel = new AbortController();
		const { ctx, calls } = fakeContext(() => answerNeverButAbort(cancel.signal));
		Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
		// Back-off sleeps that return at once: a retry would be sent right away.
		fakeTime('auto');
		const client = await ErpClient.create(ctx, {});
		const failed = rejection(client.request({ method, path: '/contacts', doing: { action: 'list or create contacts', noun: 'contact' }, body: method === 'POST' ? { first_name: 'A' } : undefined }));
		while (calls.length === 0) await flush();
		cancel.abort();
		const error = await failed;
		// Neither retried (GET) nor reported as a broken connection that "may have" created something (POST).
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).not.toBeInstanceOf(NodeApiError);
		expect(calls).toHaveLength(1);
	});

	it('sends nothing once the execution is cancelled', async () => {
		const { client, calls, cancel } = await cancellable(() => json(200, { data: {} }));
		cancel.abort();
		expect(await rejection(client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } }))).toBeInstanceOf(NodeOperationError);
		expect(calls).toHaveLength(0);
	});
});

describe('the retry rules (retryPolicy.test.ts) as the client keeps them: sent once, or again after the wait', () => {
	it('sends a POST once when the server fails with 500, and says the record may exist', async () => {
		const { client, calls } = await clientFor(() => json(500, { success: false, error: { code: 'server_error', message: 'boom' } }));
		const error = await failureOf(client.request({ method: 'POST', path: '/invoices', doing: { action: 'create the invoice', noun: 'invoice' }, body: { contact_id: 1 } }));
		expect(calls).toHaveLength(1);
		expect(error.message).toBe('The ERP failed with a server error (500)');
		expect(error.description).toMatch(/may have done it anyway/);
		expect(error.description).toMatch(/boom/);
		expect(error.httpCode).toBe('500');
	});
	it('retries a POST after 429, waiting Retry-After', async () => {
		const { client, calls, clock } = await clientFor((_o, call) =>
			call === 1 ? json(429, {}, { 'retry-after': '2' }) : json(201, { success: true, data: { id: 9 } }),
		);
		const response = await client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } });
		expect(response).toMatchObject({ statusCode: 201, data: { id: 9 } });
		expect(calls).toHaveLength(2);
		expect(clock.sleeps).toEqual([2000]);
	});
	it('retries a 5xx on its own short schedule, ignoring a far X-RateLimit-Reset and Retry-After', async () => {
		const { client, calls, clock } = await clientFor((_o, call) =>
			call <= 2
				? json(503, { message: 'busy' }, { 'x-ratelimit-reset': anHourFromNow(clock.now()), 'retry-after': '3600' })
				: json(200, { data: { id: 3 } }),
		);
		const response = await client.request({ method: 'GET', path: '/products/3', doing: { action: 'read product 3', noun: 'product', id: 3 } });
		expect(response.data).toEqual({ id: 3 });
		expect(calls).toHaveLength(3);
		expect(clock.sleeps).toEqual([375, 750]);
	});
	it('gives up after Max Retries with a 429 message that says what to change', async () => {
		const { client, calls, clock } = await clientFor(() => json(429, { message: 'slow down' }, { 'retry-after': '1' }), { maxRetries: 3 });
		const error = await failureOf(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } }));
		expect(calls).toHaveLength(4);
		expect(clock.sleeps).toEqual([1000, 1000, 1000]);
		expect(error.message).toBe('The ERP is still rate-limiting requests after 3 retries (429)');
		expect(error.description).toMatch(/^Nothing was done. Wait a minute before trying again; if this happens often, lower Concurrency or raise Max Retries/);
	});
});

describe('the wait budget of a request', () => {
	it.each([
		['Retry-After in seconds', () => ({ 'retry-after': '3600' })],
		['X-RateLimit-Reset as epoch seconds', (now: number) => ({ 'x-ratelimit-reset': anHourFromNow(now) })],
		['RateLimit-Reset in seconds', () => ({ 'ratelimit-reset': '3600' })],
	])('fails at once when a 429 names a wait beyond the budget (%s), saying when to try again', async (_how, headers) => {
		const { client, calls, clock } = await clientFor(() => json(429, { error: { message: 'quota used up' } }, headers(clock.now())));
		const error = await failureOf(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, itemIndex: 2 }));
		expect(calls).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
		expect(error.message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect(error.description).toMatch(/^Try again after 2023-11-14 23:13:20 UTC \(in 1 h\)\. The node waits at most 5 min for one request/);
		expect(error.description).toMatch(/quota used up/);
		expect(error.httpCode).toBe('429');
		expect(error.context.itemIndex).toBe(2);
	});
	it("fails at once, sending nothing, while another request's 429 names a wait beyond the budget", async () => {
		const { client, calls } = await clientFor(() => json(429, {}, { 'retry-after': '3600' }), { concurrency: 2 });
		await failureOf(client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } }));
		const second = await failureOf(client.request({ method: 'GET', path: '/contacts/2', doing: { action: 'read contact 2', noun: 'contact', id: 2 } }));
		expect(second.message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect(calls.map((call) => call.url)).toEqual([`${client.baseUrl}/contacts/1`]);
	});
	it("makes a request started during another one's 429 wait hold until that wait is over", async () => {
		const clock = fakeTime('manual', 0);
		const sent: string[] = [];
		const { ctx } = fakeContext((options) => {
			sent.push(`${options.url} at ${clock.now()}`);
			return sent.length === 1 ? json(429, {}, { 'retry-after': '5' }) : json(200, { data: {} });
		});
		const client = await ErpClient.create(ctx, { concurrency: 2 });
		const first = client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } });
		await flush();
		const second = client.request({ method: 'GET', path: '/contacts/2', doing: { action: 'read contact 2', noun: 'contact', id: 2 } });
		await flush();
		await clock.advance(4999);
		expect(sent).toEqual([`${client.baseUrl}/contacts/1 at 0`]);
		await clock.advance(1);
		await Promise.all([first, second]);
		expect(sent.sort()).toEqual([`${client.baseUrl}/contacts/1 at 0`, `${client.baseUrl}/contacts/1 at 5000`, `${client.baseUrl}/contacts/2 at 5000`]);
	});
	it("counts the time spent waiting out another request's 429 toward its own wait budget", async () => {
		const clock = fakeTime('manual', 0);
		const sent: string[] = [];
		const { ctx } = fakeContext((options) => {
			sent.push(String(options.url));
			return json(429, {}, { 'retry-after': sent.length === 1 ? '5' : '2' });
		});
		const client = await ErpClient.create(ctx, { concurrency: 2, maxRetries: 5, maxTotalWaitMs: 6000 });
		const first = client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } });
		const firstFailure = first.catch((error: unknown) => error);
		await flush();
		const second = client.request({ method: 'GET', path: '/contacts/2', doing: { action: 'read contact 2', noun: 'contact', id: 2 } }).catch((error: unknown) => error);
		await flush();
		await clock.advance(5000);
		// The second request waited 5 s; at 5 s the first one's retry is refused for 2 s more, which would exceed the
		// second's 6 s budget: it gives up without being sent.
		const gaveUp = await second;
		expect(gaveUp).toBeInstanceOf(NodeApiError);
		expect((gaveUp as NodeApiError).message).toBe('The ERP asks to wait 2 s before the next request (429)');
		expect(sent.filter((url) => url.endsWith('/contacts/2'))).toHaveLength(0);
		await clock.advance(2000);
		await clock.advance(4000);
		await firstFailure;
	});
});

describe('a DELETE answered 404', () => {
	it('treats a 404 on a DELETE repeated after an ambiguous failure as done', async () => {
		const { client, calls } = await clientFor((_o, call) => (call === 1 ? networkError('ECONNRESET') : json(404, { error: { message: 'not found' } })));
		const response = await client.request({ method: 'DELETE', path: '/contacts/5', doing: { action: 'delete contact 5', noun: 'contact', id: 5 } });
		expect(calls).toHaveLength(2);
		expect(response.data).toBeUndefined();
	});
	it('reports a 404 on a DELETE retried after a 429 as not found: a 429 means nothing was done', async () => {
		const { client, calls } = await clientFor((_o, call) => (call === 1 ? json(429, {}, { 'retry-after': '1' }) : json(404, { error: { message: 'not found' } })));
		const error = await failureOf(client.request({ method: 'DELETE', path: '/contacts/5', doing: { action: 'delete contact 5', noun: 'contact', id: 5 } }));
		expect(calls).toHaveLength(2);
		expect(error.message).toBe('Contact 5 was not found (404)');
	});
	it('reports a 404 on a first DELETE as not found', async () => {
		const { client } = await clientFor(() => json(404, { success: false, error: { code: 'not_found', message: 'Contact not found' } }));
		const error = await failureOf(client.request({ method: 'DELETE', path: '/contacts/5', doing: { action: 'delete contact 5', noun: 'contact', id: 5 } }));
		expect(error.message).toBe('Contact 5 was not found (404)');
	});
});

describe("what a wait the ERP named declares (n8n's failure)", () => {
	const now = 1_700_000_000_000;
	const listContacts: ErpRequest = { method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } };
	const errorOf = async (responder: Responder, maxRetries = 0) => await failureOf((await clientFor(responder, { maxRetries })).client.request(listContacts));

	it.each([
		['Retry-After in seconds', { 'retry-after': '120' }, { retryAfterMs: 120_000 }],
		['X-RateLimit-Reset in epoch seconds: the wait and the reset instant', { 'x-ratelimit-reset': String(now / 1000 + 45) }, { retryAfterMs: 45_000, resetsAtEpochMs: now + 45_000 }],
		["the IETF draft's RateLimit-Reset, seconds from now: the wait only", { 'ratelimit-reset': '30' }, { retryAfterMs: 30_000 }],
		['no wait named: rate-limited alone', {}, {}],
	])('a 429 with %s → rate-limited', async (_what, headers, wait) => {
		const error = await errorOf(() => json(429, { message: 'slow down' }, headers));
		expect(error.message).toBe('The ERP is still rate-limiting requests (429)');
		expect(error.failure).toEqual({ cause: 'rate-limited', ...wait });
	});

	it('a reset instant beyond the budget → the wait and the instant, at once', async () => {
		const at = now + 2 * 3_600_000;
		const error = await errorOf(() => json(429, {}, { 'x-ratelimit-reset': String(at / 1000) }), 5);
		expect(error.message).toBe('The ERP asks to wait 2 h before the next request (429)');
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 2 * 3_600_000, resetsAtEpochMs: at });
	});

	it("a 5xx's reset header belongs to the rate limit: temporarily-unavailable without a wait", async () => {
		const error = await errorOf(() => json(503, {}, { 'retry-after': '3600', 'x-ratelimit-reset': String(now / 1000 + 3600) }));
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});
