// One request through ErpClient over a scripted HTTP helper: what it sends, what a success must carry, and every error's
// wording and n8n `failure` (n8n-workflow 2.x) from what the ERP answered. Retries and waits: waits.test.ts.
import { NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import type { ErpRequest } from '../../../../nodes/shared/transport/types';
import { fakeContext, json, networkError, TOKEN } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor, failureOf, rejection } from './clientFor';

const listContacts = { action: 'list contacts', noun: 'contact' };
const createContact = { action: 'create the contact', noun: 'contact' };
const get = (path: string, doing: ErpRequest['doing'] = listContacts): ErpRequest => ({ method: 'GET', path, doing, itemIndex: 3 });
const post = (path: string, doing: ErpRequest['doing'] = createContact): ErpRequest => ({ method: 'POST', path, doing, body: { email: 'x' }, itemIndex: 0 });
const readProduct = get('/products/1', { action: 'read product 1', noun: 'product', id: 1 });

let tokens = 0;

/** The error of one request, sent once (no retries), against an ERP of its own (at `baseUrl`: a token of its own). */
async function errorOf(responder: Responder, request: ErpRequest = get('/contacts'), baseUrl?: string) {
	const { client } = await clientFor(responder, { maxRetries: 0 }, baseUrl ? { baseUrl, apiToken: `${TOKEN}-${++tokens}` } : undefined);
	return await failureOf(client.request(request));
}

describe('what a request sends and what a success must carry', () => {
	it('sends JSON to base URL + path and opens the envelope', async () => {
		const { client, calls } = await clientFor(() => json(200, { success: true, data: { id: 7 } }), {}, { baseUrl: 'https://erp.test/api/v1/', apiToken: TOKEN });
		const response = await client.request({ method: 'PUT', path: '/contacts/7', doing: { action: 'update contact 7', noun: 'contact', id: 7 }, body: { company: 'Acme' } });
		expect(response.data).toEqual({ id: 7 });
		const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
		expect(calls).toEqual([expect.objectContaining({ method: 'PUT', url: 'https://erp.test/api/v1/contacts/7', body: { company: 'Acme' }, headers, returnFullResponse: true, ignoreHttpStatusErrors: true, timeout: 30000 })]);
	});

	it('asks no longer a time limit than the run has left before its deadline', async () => {
		const { client, calls } = await clientFor(() => json(200, { data: {} }), { deadlineAt: 1_700_000_002_000 }); // fake time starts at 1_700_000_000_000
		await client.request(get('/contacts'));
		expect(calls[0].timeout).toBe(2000);
	});

	it.each(['', 'erp.example.com/api/v1', 'ftp://erp.example.com/api/v1', 'https://erp.example.com/api/v1?x=1'])('refuses the credential Base URL "%s" before any request → configuration-invalid', async (baseUrl) => {
		const { ctx, calls } = fakeContext(() => json(200, {}), { baseUrl, apiToken: TOKEN });
		const error = await rejection(ErpClient.create(ctx));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as NodeOperationError).message).toMatch(/has no Base URL|not a web address|must start with http|must not contain \? or #/);
		expect((error as NodeOperationError).failure).toEqual({ cause: 'configuration-invalid' });
		expect(calls).toHaveLength(0);
	});

	it('accepts a record with or without the envelope, a 204 without a body, and a list, missing or given', async () => {
		const answer = async (body: unknown, request: ErpRequest, status = 200) => (await (await clientFor(() => json(status, body))).client.request(request)).data;
		const record = { ...get('/contacts/1', { action: 'read contact 1', noun: 'contact', id: 1 }), expect: 'record' as const };
		const list = { ...get('/contacts'), expect: 'list' as const };
		expect(await answer({ success: true, data: { id: 1 } }, record)).toEqual({ id: 1 });
		expect(await answer({ id: 1 }, record)).toEqual({ id: 1 });
		expect(await answer('', { method: 'DELETE', path: '/contacts/1', doing: { action: 'delete contact 1', noun: 'contact', id: 1 } }, 204)).toBeUndefined();
		expect(await answer({ success: true, meta: { total: 0 } }, list)).toEqual([]);
		expect(await answer([{ id: 2 }], list)).toEqual([{ id: 2 }]);
	});

	it('takes `success: false` on a 200 or a 201 as a failure, with the ERP message and code, never retried', async () => {
		for (const statusCode of [200, 201]) {
			const { client, calls } = await clientFor(() => json(statusCode, { success: false, error: { code: 'plan_limit', message: 'Contact limit of your plan reached' } }));
			const error = await failureOf(client.request(post('/contacts')));
			expect(calls).toHaveLength(1);
			expect(error).toMatchObject({ message: 'The ERP refused to create the contact: Contact limit of your plan reached (error code plan_limit)', httpCode: String(statusCode) });
			expect(error.description).toMatch(new RegExp(`^It answered ${statusCode} with success: false`));
		}
		const fields = await errorOf(() => json(200, { success: false, error: { code: 'validation_failed', fields: { email: ['is already taken'] } } }), { ...post('/contacts/4', { action: 'update contact 4', noun: 'contact', id: 4 }), method: 'PUT' });
		expect(fields.message).toBe('The ERP refused to update contact 4: email: is already taken (error code validation_failed)');
	});

	it.each([
		['no data', { success: true }],
		['null data', { success: true, data: null }],
		['a list', { success: true, data: [{ id: 1 }] }],
		['a bare string', 'Created'],
		['nothing', ''],
	])('a create that expects a record and gets %s: "probably created", sent once, no failure cause', async (_what, body) => {
		const { client, calls } = await clientFor(() => json(201, body));
		const error = await failureOf(client.request({ ...post('/contacts'), expect: 'record', itemIndex: 4 }));
		expect(calls).toHaveLength(1);
		expect(error).toMatchObject({ message: 'The ERP answered success but sent no contact', context: { itemIndex: 4 }, failure: undefined });
		expect(error.description).toMatch(/^The contact was probably created: check in the ERP before running this item again/);
	});

	it('a send without the invoice back was probably done; a read or a list answered with something else points at the Base URL', async () => {
		const sent = await errorOf(() => json(200, { success: true }), { ...post('/invoices/7/send', { action: 'send invoice 7', noun: 'invoice', id: 7 }), expect: 'record' });
		expect(sent.description).toMatch(/^The ERP probably did send invoice 7: check in the ERP/);
		const html = '<html><head><title>Welcome</title></head><body>Our shop</body></html>';
		const read = await errorOf(() => json(200, html), { ...get('/invoices/7', { action: 'read invoice 7', noun: 'invoice', id: 7 }), expect: 'record' });
		expect(read).toMatchObject({ message: 'The ERP answered success but sent no invoice', failure: { cause: 'configuration-invalid' } });
		expect(read.description).toMatch(/Base URL/);
		const list = await errorOf(() => json(200, html), { ...get('/contacts'), expect: 'list' });
		expect(list).toMatchObject({ message: 'The ERP answered /contacts with something that is not a list', failure: { cause: 'configuration-invalid' } });
	});
});

describe('error wording and failure cause, by what the ERP answered', () => {
	const sendInvoice = post('/invoices/7/send', { action: 'send invoice 7', noun: 'invoice', id: 7 });
	it.each<[string, Responder, ErpRequest, string, RegExp, string | undefined]>([
		['401', () => json(401, { success: false, error: { code: 'unauthorized', message: 'Invalid token' } }), get('/contacts'), 'The ERP rejected the API token (401)', /^Check the API Token in the ERP API credential/, 'credential-invalid'],
		['403', () => json(403, {}), sendInvoice, 'The API token is not allowed to send invoice 7 (403)', /^Ask an ERP administrator/, 'configuration-invalid'],
		['403 of a create', () => json(403, {}), post('/contacts'), 'The API token is not allowed to create the contact (403)', /access to contacts/, 'configuration-invalid'],
		['404 of a record', () => json(404, {}), get('/invoices/12', { action: 'read invoice 12', noun: 'invoice', id: 12 }), 'Invoice 12 was not found (404)', /^Check the ID/, undefined],
		['400', () => json(400, { code: 'E_FILTER' }), get('/contacts'), 'The ERP could not process the request to list contacts (400)', /^Check the values and filters sent\. The ERP's error code: E_FILTER$/, undefined],
		['422', () => json(422, { errors: { email: ['is invalid'] } }), post('/contacts'), 'The ERP refused to create the contact (422): email: is invalid', /^Nothing was saved\. Fix this field/, undefined],
		['429 naming no wait', () => json(429, {}), get('/contacts'), 'The ERP is still rate-limiting requests (429)', /^Nothing was done\. Wait a minute before trying again/, 'rate-limited'],
		['a 5xx with an empty body', () => json(500, ''), readProduct, 'The ERP failed with a server error (500)', /^Try again later\.$/, 'temporarily-unavailable'],
		['a 5xx of a POST', () => json(500, { error: { message: 'boom' } }), post('/invoices'), 'The ERP failed with a server error (500)', /^The ERP may have done it anyway\. .*boom/, 'temporarily-unavailable'],
		['a dropped connection', () => networkError('ECONNRESET', 'socket hang up'), post('/contacts'), 'The connection to the ERP broke before it answered', /^socket hang up\. The ERP may have done it anyway/, 'temporarily-unavailable'],
		['a timeout', () => networkError('ECONNABORTED', 'timeout of 30000ms exceeded'), readProduct, 'The ERP did not answer within 30 s', /^Raise Timeout/, 'temporarily-unavailable'],
		['a refused connection', () => networkError('ECONNREFUSED', 'connect ECONNREFUSED'), readProduct, 'Could not connect to the ERP at erp.test: connection refused', /^Check the Base URL/, 'temporarily-unavailable'],
		['a DNS hiccup (EAI_AGAIN)', () => networkError('EAI_AGAIN'), readProduct, 'Could not reach the ERP at erp.test', /^EAI_AGAIN\. Nothing reached the ERP/, 'temporarily-unavailable'],
		['no such host', () => networkError('ENOTFOUND'), readProduct, 'The ERP host "erp.test" was not found', /for a typo/, 'configuration-invalid'],
		['a rejected certificate', () => networkError('CERT_HAS_EXPIRED', 'certificate has expired'), post('/contacts'), 'Could not reach the ERP at erp.test', /^certificate has expired\. Nothing reached the ERP(?!.*may have done it)/, 'configuration-invalid'],
	])('%s', async (_what, responder, request, message, description, cause) => {
		const error = await errorOf(responder, request, 'https://erp.test/api/v1');
		expect([error.message, error.failure, error.context.itemIndex]).toEqual([message, cause && { cause }, request.itemIndex]);
		expect(error.description).toMatch(description);
	});

	it.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_INVALID_URL'])('%s → configuration-invalid', async (code) => {
		expect((await errorOf(() => networkError(code))).failure).toEqual({ cause: 'configuration-invalid' });
	});

	it('a 404 of a whole list names the Base URL → configuration-invalid', async () => {
		const error = await errorOf(() => json(404, '<html><body>Not Found</body></html>'), get('/contacts'), 'https://erp.test/api/vl');
		expect(error).toMatchObject({ message: 'Nothing answers at https://erp.test/api/vl/contacts (404)', failure: { cause: 'configuration-invalid' } });
		expect(error.description).toMatch(/must end with \/api\/v1/);
	});

	it.each([
		['our envelope', { success: false, error: { code: 'validation_failed', message: 'Invalid', fields: { email: ['must be a valid e-mail address'], phone: ['must start with +'] } } }],
		['errors map', { message: 'Invalid', errors: { email: ['must be a valid e-mail address'], phone: 'must start with +' } }],
		['errors list', { errors: [{ field: 'email', message: 'must be a valid e-mail address' }, { field: 'phone', message: 'must start with +' }] }],
	])('422: lists the field messages from %s', async (_shape, body) => {
		const error = await errorOf(() => json(422, body), post('/contacts'));
		expect(error.message).toBe('The ERP refused to create the contact (422): email: must be a valid e-mail address; phone: must start with +');
		expect(error.description).toMatch(/Fix these fields/);
	});

	it.each([
		['{message}', { message: 'Database unavailable' }, 'Database unavailable'],
		['{error: string}', { error: 'Database unavailable' }, 'Database unavailable'],
		['HTML', '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'an HTML page: 502 Bad Gateway'],
		['plain text', 'upstream connect error', 'upstream connect error'],
	])('5xx: shows the ERP sentence from a %s body', async (_shape, body, said) => {
		expect((await errorOf(() => json(502, body), readProduct)).description).toContain(said);
	});

	it("carries the ERP's machine code beside its message", async () => {
		const error = await errorOf(() => json(401, { success: false, error: { code: 'token_revoked', message: 'Invalid token' } }));
		expect(error.description).toMatch(/The ERP said: Invalid token \(error code token_revoked\)$/);
	});
});

/** Every own property of the error, serialized: message, description, context, cause/errorResponse, stack. */
const everythingIn = (error: Error) =>
	Object.getOwnPropertyNames(error)
		.map((key) => JSON.stringify((error as unknown as Record<string, unknown>)[key]))
		.join(' ');

describe('the token never leaks', () => {
	it('is redacted from what the server echoes, and absent from the whole error and its serialization', async () => {
		const echo = { success: false, error: { message: `token ${TOKEN} is revoked`, fields: { token: [`${TOKEN} unknown`] } } };
		for (const status of [400, 401, 403, 422, 500]) {
			const error = await errorOf(() => json(status, echo), post('/contacts'));
			expect(everythingIn(error)).toContain('[redacted]');
			expect(everythingIn(error)).not.toContain(TOKEN);
		}
		const revoked = await errorOf(() => json(401, { success: false, error: { message: `token ${TOKEN} is revoked` } }));
		expect(revoked.description).toBe('Check the API Token in the ERP API credential: it may be mistyped, expired or revoked. The ERP said: token [redacted] is revoked');
		const serialized = JSON.stringify({ ...revoked, json: revoked.toJSON?.(), errorResponse: revoked.errorResponse });
		expect(serialized).toContain('"failure":{"cause":"credential-invalid"}');
		expect(serialized).not.toContain(TOKEN);
	});

	it('is absent when the HTTP client error (whose config holds the header) caused the failure', async () => {
		const error = await errorOf(() => networkError('ECONNRESET', 'socket hang up'), readProduct);
		expect(everythingIn(error)).toMatch(/socket hang up/);
		expect(everythingIn(error)).not.toContain(TOKEN);
	});
});
