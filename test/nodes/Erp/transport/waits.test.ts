// Retries and waits of a request through ErpClient over a scripted HTTP helper, in fake time (`clock.sleeps` records
// every wait; a cancelled run's tests, first, on real time): which failures are sent again, the wait budget, and
// what a wait the ERP named declares.
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fakeTime, flush, json, networkError } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf, read, rejection, run } from './clientFor';

const anHourFromNow = (now: number) => String(Math.round(now / 1000) + 3600);
const CANCELLED = 'The execution was cancelled: no further request was sent to the ERP';

describe('a cancelled execution (n8n’s abort signal)', () => {
	it('ends a back-off wait, or the wait of a request held at the ERP’s 429, at once, and sends nothing more', async () => {
		const { client, calls, cancel } = await run(() => json(429, {}, { 'retry-after': '200' }), { concurrency: 2 });
		const first = rejection(client.request({ ...read(1), itemIndex: 1 }));
		while (calls.length === 0) await flush();
		const held = rejection(client.request(read(2)));
		await flush();
		cancel.abort();
		for (const error of [await first, await held]) expect(error).toMatchObject({ name: 'NodeOperationError', message: CANCELLED });
		expect(calls).toHaveLength(1);
	});

	it.each(['GET', 'POST'] as const)('is not taken for a network failure when it breaks off a %s on the wire', async (method) => {
		// Answers like n8n's helper once the execution is cancelled: an error wrapping axios' CanceledError.
		const canceled = Object.assign(new Error('canceled'), { cause: { code: 'ERR_CANCELED', name: 'CanceledError', message: 'canceled' } });
		// Back-off sleeps that return at once: a retry would be sent right away.
		const started = await clientFor(() => new Promise((_resolve, reject) => started.cancel.signal.addEventListener('abort', () => reject(canceled))));
		const failed = rejection(started.client.request({ ...read(), method, body: method === 'POST' ? { first_name: 'A' } : undefined }));
		while (started.calls.length === 0) await flush();
		started.cancel.abort();
		// Neither retried (GET) nor reported as a broken connection that "may have" created something (POST).
		const error = await failed;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error).not.toBeInstanceOf(NodeApiError);
		expect(started.calls).toHaveLength(1);
	});

	it('sends nothing once the execution is cancelled', async () => {
		const { client, calls, cancel } = await run(() => json(200, { data: {} }));
		cancel.abort();
		expect(await rejection(client.request(read(1)))).toBeInstanceOf(NodeOperationError);
		expect(calls).toHaveLength(0);
	});
});

describe('the retry rules (retryPolicy.test.ts) as the client keeps them: sent once, or again after the wait', () => {
	it('sends a POST once when the server fails with 500, and says the record may exist', async () => {
		const { client, calls } = await clientFor(() => json(500, { success: false, error: { code: 'server_error', message: 'boom' } }));
		const error = await failureOf(client.request({ method: 'POST', path: '/invoices', doing: { action: 'create the invoice', noun: 'invoice' }, body: { contact_id: 1 } }));
		expect(calls).toHaveLength(1);
		expect(error).toMatchObject({ message: 'The ERP failed with a server error (500)', httpCode: '500' });
		expect(error.description).toMatch(/may have done it anyway.*boom/);
	});
	it('retries a POST after 429, waiting Retry-After', async () => {
		const { client, calls, clock } = await clientFor((_o, call) => (call === 1 ? json(429, {}, { 'retry-after': '2' }) : json(201, { success: true, data: { id: 9 } })));
		expect(await client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } })).toMatchObject({ statusCode: 201, data: { id: 9 } });
		expect([calls.length, clock.sleeps]).toEqual([2, [2000]]);
	});
	it('retries a 5xx on its own short schedule, ignoring a far X-RateLimit-Reset and Retry-After', async () => {
		const { client, calls, clock } = await clientFor((_o, call) => (call <= 2 ? json(503, { message: 'busy' }, { 'x-ratelimit-reset': anHourFromNow(clock.now()), 'retry-after': '3600' }) : json(200, { data: { id: 3 } })));
		expect((await client.request(read(3, 'product'))).data).toEqual({ id: 3 });
		expect([calls.length, clock.sleeps]).toEqual([3, [375, 750]]);
	});
	it('gives up after Max Retries with a 429 message that says what to change', async () => {
		const { client, calls, clock } = await clientFor(() => json(429, { message: 'slow down' }, { 'retry-after': '1' }), { maxRetries: 3 });
		const error = await failureOf(client.request(read()));
		expect([calls.length, clock.sleeps]).toEqual([4, [1000, 1000, 1000]]);
		expect(error.message).toBe('The ERP is still rate-limiting requests after 3 retries (429)');
		expect(error.description).toMatch(/^Nothing was done. Wait a minute before trying again; if this happens often, lower Concurrency or raise Max Retries/);
	});
	it('takes a 404 of a DELETE repeated after an unclear failure as done; after a 429 (nothing was done) or at once, as not found', async () => {
		const del = { method: 'DELETE' as const, path: '/contacts/5', doing: { action: 'delete contact 5', noun: 'contact', id: 5 } };
		const notFound = json(404, { success: false, error: { code: 'not_found', message: 'Contact not found' } });
		const repeated = await clientFor((_o, call) => (call === 1 ? networkError('ECONNRESET') : notFound));
		expect((await repeated.client.request(del)).data).toBeUndefined();
		expect(repeated.calls).toHaveLength(2);
		const afterRateLimit = await clientFor((_o, call) => (call === 1 ? json(429, {}, { 'retry-after': '1' }) : notFound));
		expect((await failureOf(afterRateLimit.client.request(del))).message).toBe('Contact 5 was not found (404)');
		expect(afterRateLimit.calls).toHaveLength(2);
		expect((await failureOf((await clientFor(() => notFound)).client.request(del))).message).toBe('Contact 5 was not found (404)');
	});
});

describe('the wait budget of a request', () => {
	// Every header that names a wait: readRateHeaders in rateControl.test.ts.
	it('fails at once when a 429 names a wait (or a reset instant) beyond the budget, saying when to try again', async () => {
		const { client, calls, clock } = await clientFor(() => json(429, { error: { message: 'quota used up' } }, { 'x-ratelimit-reset': anHourFromNow(Date.now()) }));
		const error = await failureOf(client.request({ ...read(), itemIndex: 2 }));
		expect([calls.length, clock.sleeps]).toEqual([1, []]);
		expect(error).toMatchObject({ message: 'The ERP asks to wait 1 h before the next request (429)', httpCode: '429', context: { itemIndex: 2 }, failure: { cause: 'rate-limited', retryAfterMs: 3_600_000, resetsAtEpochMs: 1_700_003_600_000 } });
		expect(error.description).toMatch(/^Try again after 2023-11-14 23:13:20 UTC \(in 1 h\)\. The node waits at most 5 min for one request.*quota used up/);
	});
	it("fails at once, sending nothing, while another request's 429 names a wait beyond the budget", async () => {
		const { client, calls } = await clientFor(() => json(429, {}, { 'retry-after': '3600' }), { concurrency: 2 });
		await failureOf(client.request(read(1)));
		expect((await failureOf(client.request(read(2)))).message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect(calls.map((call) => call.url)).toEqual([`${client.baseUrl}/contacts/1`]);
	});
	it("counts a hold at another request's 429 toward the budget of its own retries", async () => {
		const clock = fakeTime('manual', 0);
		const sent: string[] = [];
		// Contact 1 is refused for 5 s once; contact 2, sent once that wait is over, is refused for 2 s: past its 6 s budget.
		const { client } = await run((options) => {
			sent.push(String(options.url).split('/').pop() ?? '');
			return sent.filter((id) => id === sent.at(-1)).length === 1 ? json(429, {}, { 'retry-after': sent.at(-1) === '1' ? '5' : '2' }) : json(200, { data: {} });
		}, { concurrency: 2, maxTotalWaitMs: 6000 });
		const first = client.request(read(1));
		await flush();
		const second = rejection(client.request(read(2)));
		await clock.advance(5000);
		expect(await second).toMatchObject({ name: 'NodeApiError', message: 'The ERP asks to wait 2 s before the next request (429)' });
		await first;
		expect(sent.sort()).toEqual(['1', '1', '2']);
	});
});

describe("what a wait the ERP named declares (n8n's failure)", () => {
	const now = 1_700_000_000_000;
	const errorOf = async (responder: Responder, maxRetries = 0) => await failureOf((await clientFor(responder, { maxRetries })).client.request(read()));

	it('a 429 naming its reset in epoch seconds → rate-limited, with the wait and the reset instant (every header that names a wait: readRateHeaders)', async () => {
		const error = await errorOf(() => json(429, { message: 'slow down' }, { 'x-ratelimit-reset': String(now / 1000 + 45) }));
		expect(error.message).toBe('The ERP is still rate-limiting requests (429)');
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 45_000, resetsAtEpochMs: now + 45_000 });
	});

	it("a 5xx's reset header belongs to the rate limit: temporarily-unavailable without a wait", async () => {
		expect((await errorOf(() => json(503, {}, { 'retry-after': '3600', 'x-ratelimit-reset': String(now / 1000 + 3600) }))).failure).toEqual({ cause: 'temporarily-unavailable' });
	});
});
