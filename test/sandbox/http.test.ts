import axios from 'axios';

import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

const raw = (headers: Record<string, string> = {}) =>
	axios.create({ baseURL: sandbox.baseUrl, headers, validateStatus: () => true });

describe('authentication', () => {
	it.each([
		['no Authorization header', {}],
		['another scheme', { Authorization: 'Basic c2FuZGJveDp0b2tlbg==' }],
		['an unknown token', { Authorization: 'Bearer not-the-token' }],
		['Bearer without a token', { Authorization: 'Bearer' }],
	])('answers 401 with the error envelope for %s', async (_name, headers) => {
		const response = await raw(headers).get('/contacts');
		expect(response.status).toBe(401);
		expect(response.headers['www-authenticate']).toBe('Bearer');
		expect(response.data).toEqual({ success: false, error: { code: 'unauthorized', message: expect.any(String) } });
	});

	it('accepts the scheme name in any case', async () => {
		const response = await raw({ Authorization: `bearer ${sandbox.token}` }).get('/contacts');
		expect(response.status).toBe(200);
	});

	it('lets the read-only token read but answers 403 to every write, changing nothing', async () => {
		const contact = await createContact(sandbox.api);
		const readOnly = raw({ Authorization: `Bearer ${sandbox.readOnlyToken}` });

		expect((await readOnly.get('/contacts')).status).toBe(200);
		expect((await readOnly.get(`/contacts/${contact.id}`)).data.data.first_name).toBe('Anna');
		const writes = await Promise.all([
			readOnly.post('/contacts', { first_name: 'Eve' }),
			readOnly.put(`/contacts/${contact.id}`, { first_name: 'Eve' }),
			readOnly.delete(`/contacts/${contact.id}`),
			readOnly.post('/products', { sku: 'X-1', name: 'X' }),
		]);
		for (const response of writes) {
			expect(response.status).toBe(403);
			expect(response.data.error.code).toBe('forbidden');
		}
		expect(await sandbox.admin.records('contacts')).toEqual([contact]);
		expect(await sandbox.admin.records('products')).toEqual([]);
	});

	it('logs how each request authenticated, never the token itself', async () => {
		await raw().get('/contacts');
		await raw({ Authorization: 'Bearer wrong-token-value' }).get('/contacts');
		await raw({ Authorization: `Bearer ${sandbox.readOnlyToken}` }).get('/contacts');
		await sandbox.api.get('/contacts');
		const log = await sandbox.admin.requests();
		expect(log.map((entry) => entry.auth)).toEqual(['none', 'invalid', 'readonly', 'full']);
		const text = JSON.stringify(log);
		expect(text).not.toContain(sandbox.token);
		expect(text).not.toContain('wrong-token-value');
	});
});

describe('routing', () => {
	it.each([
		['GET', '/contacts/999'],
		['GET', '/contacts/abc'],
		['GET', '/nothing'],
		['DELETE', '/invoices/1'],
		['PUT', '/employees/1'],
	])('answers 404 not_found to %s %s', async (method, path) => {
		const response = await sandbox.api.request({ method, url: path });
		expect(response.status).toBe(404);
		expect(response.data).toEqual({ success: false, error: { code: 'not_found', message: expect.any(String) } });
	});

	it('answers 404 outside /api/v1, whatever the token', async () => {
		const response = await axios.get(`${sandbox.url}/api/contacts`, { validateStatus: () => true });
		expect(response.status).toBe(404);
		expect(response.data.success).toBe(false);
	});

	it('checks authentication before the route', async () => {
		expect((await raw().get('/nothing')).status).toBe(401);
	});

	it('tolerates a trailing slash', async () => {
		expect((await sandbox.api.get('/contacts/')).status).toBe(200);
	});

	it('reports the server time of every API answer in Server-Timing', async () => {
		const response = await sandbox.api.get('/contacts');
		expect(response.headers['server-timing']).toMatch(/^app;dur=\d+(\.\d+)?$/);
	});
});

describe('malformed requests: 400 bad_request', () => {
	it.each([
		['invalid JSON', '{"first_name": "Anna",'],
		['a JSON array', '[{"first_name": "Anna"}]'],
		['a JSON string', '"Anna"'],
		['JSON null', 'null'],
	])('for a body that is %s', async (_name, body) => {
		const response = await sandbox.api.post('/contacts', body, { headers: { 'Content-Type': 'application/json' }, transformRequest: (d) => d });
		expect(response.status).toBe(400);
		expect(response.data).toEqual({ success: false, error: { code: 'bad_request', message: expect.any(String) } });
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it.each([
		'page=abc',
		'page=0',
		'page=-1',
		'page=1.5',
		'per_page=0',
		'per_page=ten',
		'sort=favourite_colour',
		'sort=-',
		'created_after=yesterday',
		'created_before=2026-13-01',
	])('for the query %s', async (query) => {
		const response = await sandbox.api.get(`/contacts?${query}`);
		expect(response.status).toBe(400);
		expect(response.data.error.code).toBe('bad_request');
	});

	it('reads an empty body on a create as {} (so it is a 422, not a 400)', async () => {
		const response = await sandbox.api.post('/contacts');
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ first_name: ['is required'] });
	});

	it('ignores unknown query parameters', async () => {
		expect((await sandbox.api.get('/contacts?colour=blue')).status).toBe(200);
	});
});
