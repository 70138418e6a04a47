import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import { fakeContext, fakeTime, flush, json, networkError, TOKEN } from '../fakes';
import { clientFor, failureOf } from './clientFor';

describe('ErpClient requests', () => {
	it('sends JSON to base URL + path and opens the envelope', async () => {
		const { client, calls } = await clientFor(() => json(200, { success: true, data: { id: 7 } }), {}, {
			baseUrl: 'https://erp.test/api/v1/',
			apiToken: TOKEN,
		});
		const response = await client.request({ method: 'PUT', path: '/contacts/7', doing: { action: 'update contact 7', noun: 'contact', id: 7 }, body: { company: 'Acme' } });
		expect(response.data).toEqual({ id: 7 });
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({
			method: 'PUT',
			url: 'https://erp.test/api/v1/contacts/7',
			body: { company: 'Acme' },
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 30000,
		});
	});

	it('refuses a Base URL without a scheme before any request', async () => {
		const { ctx, calls } = fakeContext(() => json(200, {}), { baseUrl: 'erp.test/api/v1', apiToken: TOKEN });
		await expect(ErpClient.create(ctx)).rejects.toThrow(NodeOperationError);
		await expect(ErpClient.create(ctx)).rejects.toThrow(/must start with http|not a web address/);
		expect(calls).toHaveLength(0);
	});

	it('takes a body without the envelope, and a 204 without a body', async () => {
		const bare = await clientFor(() => json(200, { id: 1, first_name: 'Ada' }));
		expect((await bare.client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 } })).data).toEqual({ id: 1, first_name: 'Ada' });
		const empty = await clientFor(() => json(204, ''));
		expect((await empty.client.request({ method: 'DELETE', path: '/contacts/1', doing: { action: 'delete contact 1', noun: 'contact', id: 1 } })).data).toBeUndefined();
	});
});

describe('ErpClient retry rules', () => {
	it('sends a POST once when the server fails with 500, and says the record may exist', async () => {
		const { client, calls } = await clientFor(() => json(500, { success: false, error: { code: 'server_error', message: 'boom' } }));
		const error = await failureOf(client.request({ method: 'POST', path: '/invoices', doing: { action: 'create the invoice', noun: 'invoice' }, body: { contact_id: 1 } }));
		expect(calls).toHaveLength(1);
		expect(error.message).toBe('The ERP failed with a server error (500)');
		expect(error.description).toMatch(/may have done it anyway/);
		expect(error.description).toMatch(/boom/);
		expect(error.httpCode).toBe('500');
	});

	it('sends a POST once when the connection drops or times out', async () => {
		for (const [code, message] of [
			['ECONNRESET', 'socket hang up'],
			['ECONNABORTED', 'timeout of 30000ms exceeded'],
		]) {
			const { client, calls } = await clientFor(() => networkError(code, message));
			const error = await failureOf(client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } }));
			expect(calls).toHaveLength(1);
			expect(error.description).toMatch(/may have done it anyway/);
		}
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

	it('retries a POST whose connection was refused', async () => {
		const { client, calls } = await clientFor((_o, call) =>
			call === 1 ? networkError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1') : json(201, { data: { id: 1 } }),
		);
		await client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } });
		expect(calls).toHaveLength(2);
	});

	it('retries GET, PUT and DELETE on 5xx and dropped connections', async () => {
		for (const method of ['GET', 'PUT', 'DELETE'] as const) {
			const { client, calls } = await clientFor((_o, call) =>
				call === 1 ? json(503, '<html><title>503 Service Unavailable</title></html>') : call === 2 ? networkError('ECONNRESET') : json(200, { data: { ok: true } }),
			);
			await client.request({ method, path: '/products/3', doing: { action: 'read or update product 3', noun: 'product', id: 3 }, body: method === 'PUT' ? { name: 'x' } : undefined });
			expect(calls).toHaveLength(3);
		}
	});

	it('gives up after Max Retries with a 429 message that says what to change', async () => {
		const { client, calls, clock } = await clientFor(() => json(429, { message: 'slow down' }, { 'retry-after': '1' }), { maxRetries: 3 });
		const error = await failureOf(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } }));
		expect(calls).toHaveLength(4);
		expect(clock.sleeps).toEqual([1000, 1000, 1000]);
		expect(error.message).toBe('The ERP is still rate-limiting requests after 3 retries (429)');
		expect(error.description).toMatch(/^Nothing was done. Wait a minute before trying again; if this happens often, lower Concurrency or raise Max Retries/);
	});

	it('does not wait beyond the total back-off budget', async () => {
		const { client, calls, clock } = await clientFor(() => json(429, {}, { 'retry-after': '3600' }));
		await failureOf(client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } }));
		expect(calls).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
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

describe('ErpClient waits', () => {
	const anHourFromNow = (now: number) => String(Math.round(now / 1000) + 3600);

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
});

describe('what a success must carry', () => {
	it('takes `success: false` on a 200 or a 201 as a failure, with the ERP message and code, never retried', async () => {
		for (const statusCode of [200, 201]) {
			const { client, calls } = await clientFor(() => json(statusCode, { success: false, error: { code: 'plan_limit', message: 'Contact limit of your plan reached' } }));
			const error = await failureOf(client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } }));
			expect(calls).toHaveLength(1);
			expect(error.message).toBe('The ERP refused to create the contact: Contact limit of your plan reached (error code plan_limit)');
			expect(error.description).toMatch(new RegExp(`^It answered ${statusCode} with success: false`));
			expect(error.httpCode).toBe(String(statusCode));
		}
	});

	it('lists the field messages of a `success: false` answer as for a 422', async () => {
		const body = { success: false, error: { code: 'validation_failed', fields: { email: ['is already taken'] } } };
		const { client } = await clientFor(() => json(200, body));
		const error = await failureOf(client.request({ method: 'PUT', path: '/contacts/4', doing: { action: 'update contact 4', noun: 'contact', id: 4 }, body: { email: 'a@b.co' } }));
		expect(error.message).toBe('The ERP refused to update contact 4: email: is already taken (error code validation_failed)');
	});

	it.each([
		['no data', { success: true }],
		['null data', { success: true, data: null }],
		['a list', { success: true, data: [{ id: 1 }] }],
		['a bare string', 'Created'],
		['nothing', ''],
	])('fails clearly when a create that expects a record gets %s, saying it was probably created', async (_what, body) => {
		const { client, calls } = await clientFor(() => json(201, body));
		const error = await failureOf(client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' }, expect: 'record', itemIndex: 4 }));
		expect(calls).toHaveLength(1);
		expect(error.message).toBe('The ERP answered success but sent no contact');
		expect(error.description).toMatch(/^The contact was probably created: check in the ERP before running this item again/);
		expect(error.context.itemIndex).toBe(4);
	});

	it('says the action was probably done when a send gets no invoice back, and explains a read that gets none', async () => {
		const send = await clientFor(() => json(200, { success: true }));
		const sent = await failureOf(send.client.request({ method: 'POST', path: '/invoices/7/send', doing: { action: 'send invoice 7', noun: 'invoice', id: 7 }, expect: 'record' }));
		expect(sent.message).toBe('The ERP answered success but sent no invoice');
		expect(sent.description).toMatch(/^The ERP probably did send invoice 7: check in the ERP/);
		const read = await clientFor(() => json(200, { success: true, data: null }));
		const nothing = await failureOf(read.client.request({ method: 'GET', path: '/invoices/7', doing: { action: 'read invoice 7', noun: 'invoice', id: 7 }, expect: 'record' }));
		expect(nothing.message).toBe('The ERP answered success but sent no invoice');
		expect(nothing.description).toMatch(/Base URL/);
	});

	it('accepts a record with or without the envelope, and a list, missing or given', async () => {
		for (const body of [{ success: true, data: { id: 1 } }, { id: 1 }]) {
			const { client } = await clientFor(() => json(200, body));
			expect((await client.request({ method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 }, expect: 'record' })).data).toEqual({ id: 1 });
		}
		const missing = await clientFor(() => json(200, { success: true, meta: { total: 0 } }));
		expect(await missing.client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, expect: 'list' })).toMatchObject({ data: [], meta: { total: 0 } });
		const bare = await clientFor(() => json(200, [{ id: 2 }]));
		expect((await bare.client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, expect: 'list' })).data).toEqual([{ id: 2 }]);
		const notList = await clientFor(() => json(200, { success: true, data: { id: 1 } }));
		expect((await failureOf(notList.client.request({ method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, expect: 'list' }))).message).toBe(
			'The ERP answered /contacts with something that is not a list',
		);
	});
});

describe('a request that never reached the service', () => {
	it('does not say a POST may have been done when the certificate was rejected, and does not retry it', async () => {
		const { client, calls } = await clientFor(() => networkError('CERT_HAS_EXPIRED', 'certificate has expired'));
		const error = await failureOf(client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } }));
		expect(calls).toHaveLength(1);
		expect(error.message).toBe(`Could not reach the ERP at ${new URL(client.baseUrl).host}`);
		expect(error.description).toMatch(/^certificate has expired\. Nothing reached the ERP/);
		expect(error.description).not.toMatch(/may have done it/);
	});

	it('retries a POST after a DNS failure that a retry can cure', async () => {
		const { client, calls } = await clientFor((_o, call) => (call === 1 ? networkError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN erp.test') : json(201, { data: { id: 1 } })));
		await client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { first_name: 'A' } });
		expect(calls).toHaveLength(2);
	});
});
