import { NodeApiError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import { fakeContext, json, networkError, TOKEN } from '../fakes';
import type { Responder } from '../fakes';
import type { ErpRequest } from '../../../../nodes/shared/transport/types';

async function errorFor(responder: Responder, request: ErpRequest, baseUrl = 'https://erp.test/api/v1'): Promise<NodeApiError> {
	const { ctx } = fakeContext(responder, { baseUrl, apiToken: TOKEN });
	const client = await ErpClient.create(ctx, { maxRetries: 0 });
	const error = await client.request(request).then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

const get = (path: string, doing: ErpRequest['doing']): ErpRequest => ({ method: 'GET', path, doing, itemIndex: 3 });
const post = (path: string, doing: ErpRequest['doing']): ErpRequest => ({ method: 'POST', path, doing, body: { email: 'x' }, itemIndex: 0 });
const listContacts = { action: 'list contacts', noun: 'contact' };
const createContact = { action: 'create the contact', noun: 'contact' };

describe('error messages by status', () => {
	it('401: check the token', async () => {
		const error = await errorFor(() => json(401, { success: false, error: { code: 'unauthorized', message: 'Invalid token' } }), get('/contacts', listContacts));
		expect(error.message).toBe('The ERP rejected the API token (401)');
		expect(error.description).toMatch(/Check the API Token in the ERP API credential/);
		expect(error.context.itemIndex).toBe(3);
	});

	it('403: names what the token may not do', async () => {
		const error = await errorFor(() => json(403, {}), post('/invoices/7/send', { action: 'send invoice 7', noun: 'invoice', id: 7 }));
		expect(error.message).toBe('The API token is not allowed to send invoice 7 (403)');
		const create = await errorFor(() => json(403, {}), post('/contacts', createContact));
		expect(create.message).toBe('The API token is not allowed to create the contact (403)');
	});

	it('404: names the record, or the Base URL when a whole list is missing', async () => {
		expect((await errorFor(() => json(404, {}), get('/invoices/12', { action: 'read invoice 12', noun: 'invoice', id: 12 }))).message).toBe('Invoice 12 was not found (404)');
		const list = await errorFor(() => json(404, '<html><body>Not Found</body></html>'), get('/contacts', listContacts), 'https://erp.test/api/vl');
		expect(list.message).toBe('Nothing answers at https://erp.test/api/vl/contacts (404)');
		expect(list.description).toMatch(/must end with \/api\/v1/);
	});

	it.each([
		['our envelope', { success: false, error: { code: 'validation_failed', message: 'Invalid', fields: { email: ['must be a valid e-mail address'], phone: ['must start with +'] } } }],
		['errors map', { message: 'Invalid', errors: { email: ['must be a valid e-mail address'], phone: 'must start with +' } }],
		['errors list', { errors: [{ field: 'email', message: 'must be a valid e-mail address' }, { field: 'phone', message: 'must start with +' }] }],
	])('422: lists the field messages from %s', async (_shape, body) => {
		const error = await errorFor(() => json(422, body), post('/contacts', createContact));
		expect(error.message).toBe('The ERP refused to create the contact (422): email: must be a valid e-mail address; phone: must start with +');
		expect(error.description).toMatch(/Fix these fields/);
	});

	it.each([
		['{message}', { message: 'Database unavailable' }, 'Database unavailable'],
		['{error: string}', { error: 'Database unavailable' }, 'Database unavailable'],
		['HTML', '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'an HTML page: 502 Bad Gateway'],
		['plain text', 'upstream connect error', 'upstream connect error'],
	])('5xx: survives a %s body', async (_shape, body, said) => {
		const error = await errorFor(() => json(502, body), get('/products/1', { action: 'read product 1', noun: 'product', id: 1 }));
		expect(error.message).toBe('The ERP failed with a server error (502)');
		expect(error.description).toContain(said);
	});

	it("carries the ERP's machine code beside its message, whatever the status", async () => {
		const error = await errorFor(() => json(401, { success: false, error: { code: 'token_revoked', message: 'Invalid token' } }), get('/contacts', listContacts));
		expect(error.description).toMatch(/The ERP said: Invalid token \(error code token_revoked\)$/);
		const bare = await errorFor(() => json(400, { code: 'E_FILTER' }), get('/contacts', listContacts));
		expect(bare.description).toBe("Check the values and filters sent. The ERP's error code: E_FILTER");
	});

	it('5xx with an empty body still explains', async () => {
		const error = await errorFor(() => json(500, ''), get('/products/1', { action: 'read product 1', noun: 'product', id: 1 }));
		expect(error.message).toBe('The ERP failed with a server error (500)');
		expect(error.description).toBe('Try again later.');
	});

	it('timeout: says how long it waited', async () => {
		const error = await errorFor(() => networkError('ECONNABORTED', 'timeout of 30000ms exceeded'), get('/contacts/1', { action: 'read contact 1', noun: 'contact', id: 1 }));
		expect(error.message).toBe('The ERP did not answer within 30 s');
	});

	it('keeps n8n from replacing a network message with its generic one', async () => {
		const error = await errorFor(() => networkError('ECONNRESET', 'socket hang up'), post('/contacts', createContact));
		expect(error.message).toBe('The connection to the ERP broke before it answered');
		expect(error.description).toMatch(/socket hang up/);
	});
});

/** Every own property of the error, serialized: message, description, context, cause/errorResponse, stack. */
function everythingIn(error: Error): string {
	return Object.getOwnPropertyNames(error)
		.map((key) => {
			const value = (error as unknown as Record<string, unknown>)[key];
			return typeof value === 'string' ? value : JSON.stringify(value);
		})
		.join(' ');
}

describe('the token never leaks', () => {
	it('is redacted from what the server echoes, and absent from the whole error', async () => {
		const echo = { success: false, error: { message: `token ${TOKEN} is revoked`, fields: { token: [`${TOKEN} unknown`] } } };
		for (const status of [400, 401, 403, 422, 500]) {
			const error = await errorFor(() => json(status, echo), post('/contacts', createContact));
			expect(everythingIn(error)).toContain('[redacted]');
			expect(everythingIn(error)).not.toContain(TOKEN);
		}
	});

	it('is absent when the HTTP client error (whose config holds the header) caused the failure', async () => {
		const error = await errorFor(() => networkError('ECONNRESET', 'socket hang up'), get('/contacts/1', { action: 'read contact 1', noun: 'contact', id: 1 }));
		expect(everythingIn(error)).toMatch(/socket hang up/);
		expect(everythingIn(error)).not.toContain(TOKEN);
	});
});
