import axios from 'axios';

import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createProduct } from './fixtures';

const sandbox = useTestSandbox();

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
	it.each<[string, string, object?]>([
		['GET', '/contacts/999'],
		['GET', '/contacts/abc'],
		['PUT', '/contacts/12345', { first_name: 'X' }],
		['PUT', '/products/42', { name: 'x' }],
		['GET', '/products/9/stock'],
		['GET', '/employees/5'],
		['GET', '/employees/5/payroll'],
		['GET', '/invoices/77'],
		['POST', '/invoices/77/send'],
		['POST', '/invoices/77/mark-paid'],
		['GET', '/nothing'],
		['DELETE', '/invoices/1'],
		['PUT', '/employees/1'],
	])('answers 404 not_found to %s %s (an unknown record, or no such route)', async (...[method, url, data]) => {
		// A rest parameter: jest would take a third named parameter of a two-value row for its done callback.
		const response = await sandbox.api.request({ method, url, data });
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

type Page = { success: boolean; data: Array<{ id: number }>; meta: { page: number; per_page: number; total: number } };

const page = async (path: string): Promise<Page> => {
	const response = await sandbox.api.get<Page>(path);
	expect(response.status).toBe(200);
	return response.data;
};

const ids = (p: Page) => p.data.map((row) => row.id);

async function storedIds(): Promise<number[]> {
	return (await sandbox.admin.records('contacts')).map((c) => c.id);
}

describe.each(['/contacts', '/invoices', '/products', '/employees'])('GET %s paging', (path) => {
	it('answers an empty store with data [] and total 0, default page 1 of 25', async () => {
		expect(await page(path)).toEqual({ success: true, data: [], meta: { page: 1, per_page: 25, total: 0 } });
	});

	it('answers per_page above 100 with 100 records and meta.per_page 100', async () => {
		await sandbox.admin.seed({ contacts: 150, invoices: 150, products: 150, employees: 150 });
		const p = await page(`${path}?per_page=500`);
		expect(p.meta).toEqual({ page: 1, per_page: 100, total: 150 });
		expect(p.data).toHaveLength(100);
	});
});

describe('GET /contacts paging boundaries', () => {
	// The records in ascending id order, sliced as the page asks: [from, to) of the stored ids.
	it.each<[number, string, number, number, [number, number]]>([
		[30, '', 1, 25, [0, 25]],
		[30, 'page=2', 2, 25, [25, 30]],
		[50, 'page=2&per_page=25', 2, 25, [25, 50]],
		[50, 'page=3&per_page=25', 3, 25, [50, 50]],
		[3, 'page=1000000', 1000000, 25, [3, 3]],
		[205, 'per_page=100', 1, 100, [0, 100]],
		[205, 'per_page=101&page=3', 3, 100, [200, 205]],
		[20_000, 'per_page=100&page=200', 200, 100, [19_900, 20_000]],
	])('%i contacts, ?%s: page %i of %i; a last page partial or full, the next and any past the end empty, per_page capped at 100', async (count, query, pageNumber, perPage, [from, to]) => {
		await sandbox.admin.seed({ contacts: count });
		const p = await page(`/contacts?${query}`);
		expect(p.meta).toEqual({ page: pageNumber, per_page: perPage, total: count });
		expect(ids(p)).toEqual((await storedIds()).slice(from, to));
	});

	it('per_page=1 walks every record once, in ascending id order', async () => {
		await sandbox.admin.seed({ contacts: 7 });
		const walked: number[] = [];
		for (let n = 1; n <= 8; n++) walked.push(...ids(await page(`/contacts?per_page=1&page=${n}`)));
		expect(walked).toEqual(await storedIds());
	});

	it('all pages together are the whole store, with no duplicate, also after deletes', async () => {
		await sandbox.admin.seed({ contacts: 120 });
		for (const id of [1, 2, 50, 51, 120]) await sandbox.api.delete(`/contacts/${id}`);
		await createContact(sandbox.api);
		const stored = await storedIds();
		const walked: number[] = [];
		for (let n = 1; n <= 3; n++) walked.push(...ids(await page(`/contacts?per_page=50&page=${n}`)));
		expect(walked).toEqual(stored);
		expect([...walked].sort((a, b) => a - b)).toEqual(walked);
		expect(stored).toHaveLength(116);
	});

	it('pages a filtered list: meta.total counts the matches', async () => {
		await sandbox.admin.seed({ contacts: 300, seed: 5 });
		const all = await sandbox.admin.records('contacts');
		const matching = all.filter((c) => c.company?.includes('Logistics')).map((c) => c.id);
		expect(matching.length).toBeGreaterThan(10);
		const second = await page('/contacts?search=logistics&per_page=10&page=2');
		expect(second.meta).toEqual({ page: 2, per_page: 10, total: matching.length });
		expect(ids(second)).toEqual(matching.slice(10, 20));
	});

	it('pages a descending sort from the end', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		const stored = await storedIds();
		expect(ids(await page('/contacts?sort=-id&per_page=10&page=3'))).toEqual(stored.reverse().slice(20, 30));
	});
});

describe('stock and payroll paging', () => {
	it('pages the stock rows of a product', async () => {
		const product = await createProduct(sandbox.api);
		const first = (await sandbox.api.get(`/products/${product.id}/stock?per_page=2`)).data;
		expect(first.meta).toEqual({ page: 1, per_page: 2, total: 3 });
		expect(first.data.map((row: { warehouse_code: string }) => row.warehouse_code)).toEqual(['MAIN', 'NORTH']);
		const second = (await sandbox.api.get(`/products/${product.id}/stock?per_page=2&page=2`)).data;
		expect(second.data.map((row: { warehouse_code: string }) => row.warehouse_code)).toEqual(['SOUTH']);
		expect((await sandbox.api.get(`/products/${product.id}/stock?page=x`)).status).toBe(400);
	});

	it('pages payroll newest first', async () => {
		await sandbox.admin.seed({ employees: 40, seed: 2 });
		const payroll = await sandbox.admin.records('payroll');
		const employeeId = payroll.find((record) => (payroll.filter((r) => r.employee_id === record.employee_id).length >= 12))?.employee_id as number;
		const own = payroll.filter((r) => r.employee_id === employeeId);
		const second = (await sandbox.api.get(`/employees/${employeeId}/payroll?per_page=5&page=2`)).data;
		expect(second.meta).toEqual({ page: 2, per_page: 5, total: own.length });
		const periods = second.data.map((r: { period: string }) => r.period);
		expect(periods).toEqual([...periods].sort().reverse());
		expect(periods).toEqual(own.map((r) => r.period).sort().reverse().slice(5, 10));
	});
});
