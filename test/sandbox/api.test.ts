import axios from 'axios';

import { startTestSandbox, useTestSandbox, waitFor } from '../../tooling/harness/sandbox';
import { createContact, createEmployee, createInvoice, createProduct, daysFromToday, ISO_MS } from './fixtures';

// The sandbox against the API document and docs/api-assumptions.md, where the node tests do not look: each
// endpoint's method, path, status and envelope, the error shapes, and one row per choice the assumptions make.

const sandbox = useTestSandbox();

const today = daysFromToday(0);
const ISO = expect.stringMatching(ISO_MS);
const ok = (data: unknown) => ({ success: true, data });
const list = (total: number, data: unknown = expect.any(Array)) => ({ success: true, data, meta: { page: 1, per_page: 25, total } });
const failed = (code: string) => ({ success: false, error: { code, message: expect.any(String) } });
const invalid = (fields: Record<string, unknown>) => ({ success: false, error: { code: 'validation_failed', message: expect.any(String), fields } });
const has = (fields: Record<string, unknown>) => ok(expect.objectContaining(fields));

/** Contacts 1 (Anna, with invoice 1) and 2 (Ben), product 1, employee 1. */
async function world(): Promise<void> {
	const anna = await createContact(sandbox.api);
	await createContact(sandbox.api, { first_name: 'Ben', last_name: 'Adler', email: 'ben@blue.co.uk', company: 'Blue Harbor Ltd' });
	await createInvoice(sandbox.api, anna.id);
	await createProduct(sandbox.api);
	await createEmployee(sandbox.api);
}

type Row = [method: string, path: string, body: object | undefined, status: number, answer: unknown];

const ENDPOINTS: Record<string, Row[]> = {
	contacts: [
		['POST', '/contacts', { first_name: 'Cleo', last_name: 'Sand', email: 'cleo@example.com', phone: '+1 (415) 555-0123', company: 'C' }, 201, ok({ id: 3, first_name: 'Cleo', created_at: ISO })],
		['GET', '/contacts', undefined, 200, list(3)],
		['GET', '/contacts/3', undefined, 200, ok({ id: 3, first_name: 'Cleo', last_name: 'Sand', email: 'cleo@example.com', phone: '+1 (415) 555-0123', company: 'C', notes: null, custom_fields: {}, created_at: ISO, updated_at: ISO })],
		['PUT', '/contacts/1', { company: 'Initech' }, 200, has({ id: 1, company: 'Initech', email: 'anna.schmidt@example.com' })],
		['DELETE', '/contacts/2', undefined, 200, ok({ id: 2, deleted: true })],
		['GET', '/contacts/2', undefined, 404, failed('not_found')],
		['DELETE', '/contacts/1', undefined, 422, invalid({ id: ['contact has invoices'] })],
		['PUT', '/contacts/1', {}, 422, invalid({ body: ['no fields to update'] })],
		['POST', '/contacts', { email: 'nope', phone: '030 1234567' }, 422, invalid({ first_name: ['is required'], email: [expect.any(String)], phone: [expect.stringContaining('international')] })],
		['PUT', '/contacts/999', { first_name: 'X' }, 404, failed('not_found')],
	],
	invoices: [
		['POST', '/invoices', { contact_id: 1, lines: [{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 }, { description: 'Setup', unit_price: 100 }] }, 201,
			has({ id: 2, number: 'INV-000002', status: 'draft', currency: 'EUR', issue_date: today, due_date: daysFromToday(30), subtotal: 159.97, tax_total: 11.39, total: 171.36, amount_due: 171.36,
				lines: [{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 }, { description: 'Setup', quantity: 1, unit_price: 100, tax_rate: 0 }], sent_at: null, paid_at: null })],
		['GET', '/invoices', undefined, 200, list(2)],
		['GET', '/invoices/2', undefined, 200, has({ id: 2, status: 'draft' })],
		['POST', '/invoices/2/send', undefined, 200, has({ status: 'sent', sent_at: ISO })],
		['POST', '/invoices/2/send', {}, 200, has({ status: 'sent' })],
		['POST', '/invoices/2/mark-paid', { paid_at: '2025-01-05T10:00:00+01:00', payment_method: 'bank_transfer', reference: 'TRX-1' }, 200,
			has({ status: 'paid', amount_due: 0, total: 171.36, paid_at: '2025-01-05T09:00:00.000Z', payment_method: 'bank_transfer', payment_reference: 'TRX-1' })],
		['POST', '/invoices/2/mark-paid', undefined, 422, invalid({ status: ['invoice is already paid'] })],
		['POST', '/invoices/2/send', undefined, 422, invalid({ status: ['invoice is already paid'] })],
		['POST', '/invoices/1/mark-paid', { payment_method: 'barter', paid_at: '2999-01-01T00:00:00Z' }, 422, invalid({ payment_method: [expect.any(String)], paid_at: [expect.any(String)] })],
		['POST', '/invoices', { contact_id: 999, lines: [] }, 422, invalid({ contact_id: ['contact 999 does not exist'], lines: ['must contain at least one line'] })],
		['PUT', '/invoices/1', { notes: 'x' }, 404, failed('not_found')],
		['DELETE', '/invoices/1', undefined, 404, failed('not_found')],
		['GET', '/invoices/77', undefined, 404, failed('not_found')],
	],
	products: [
		['POST', '/products', { sku: 'DESK-1', name: 'Desk' }, 201,
			ok({ id: 2, sku: 'DESK-1', name: 'Desk', description: null, unit_price: 0, currency: 'EUR', unit: 'pcs', low_stock_threshold: 10, active: true, custom_fields: {}, stock_total: 0, created_at: ISO, updated_at: ISO })],
		['GET', '/products', undefined, 200, list(2)],
		['GET', '/products/2', undefined, 200, has({ id: 2, sku: 'DESK-1' })],
		['PUT', '/products/2', { unit_price: 299 }, 200, has({ id: 2, sku: 'DESK-1', unit_price: 299 })],
		['PUT', '/products/2', { stock_total: 5 }, 422, invalid({ body: ['no fields to update'] })],
		['POST', '/products', { sku: 'DESK-1', name: 'Again' }, 422, invalid({ sku: ['is already taken by product 2'] })],
		['GET', '/products/2/stock', undefined, 200, list(3, ['MAIN', 'NORTH', 'SOUTH'].map((code) => expect.objectContaining({ warehouse_code: code, quantity: 0 })))],
		['GET', '/products/9/stock', undefined, 404, failed('not_found')],
		['DELETE', '/products/2', undefined, 404, failed('not_found')],
	],
	employees: [
		['POST', '/employees', { first_name: 'Mia', last_name: 'Roth', email: 'mia@example.com' }, 201,
			has({ id: 2, employee_number: 'EMP-0002', employment_type: 'full_time', hire_date: today, salary: null, currency: 'EUR', status: 'active', custom_fields: {} })],
		['GET', '/employees', undefined, 200, list(2)],
		['GET', '/employees/2', undefined, 200, has({ id: 2, first_name: 'Mia' })],
		['GET', '/employees/2/payroll', undefined, 200, list(0, [])],
		['POST', '/employees', { first_name: 'M', last_name: 'R', email: 'MIA@Example.com' }, 422, invalid({ email: ['is already taken by employee 2'] })],
		['PUT', '/employees/1', { job_title: 'x' }, 404, failed('not_found')],
		['GET', '/employees/5/payroll', undefined, 404, failed('not_found')],
	],
};

describe('the endpoints of the API document', () => {
	it.each(Object.entries(ENDPOINTS))('%s: each endpoint answers its status and the envelope, in turn', async (_resource, rows) => {
		await world();
		for (const [method, url, data, status, answer] of rows) {
			const response = await sandbox.api.request({ method, url, data });
			expect([method, url, response.status, response.data]).toEqual([method, url, status, answer]);
		}
	});

	it('answers 404 outside /api/v1 and for an unknown route, 401 before routing; Server-Timing for the bench', async () => {
		expect((await sandbox.api.get('/contacts')).headers['server-timing']).toMatch(/^app;dur=\d+(\.\d+)?$/);
		expect((await axios.get(`${sandbox.url}/api/contacts`, { validateStatus: () => true })).status).toBe(404);
		expect((await sandbox.api.get('/nothing')).data).toEqual(failed('not_found'));
		expect((await axios.get(`${sandbox.baseUrl}/nothing`, { validateStatus: () => true })).status).toBe(401);
	});
});

describe('authentication', () => {
	const as = (headers: Record<string, string>) => axios.create({ baseURL: sandbox.baseUrl, headers, validateStatus: () => true });

	it.each([
		['no Authorization header', {}],
		['another scheme', { Authorization: 'Basic c2FuZGJveDp0b2tlbg==' }],
		['an unknown token', { Authorization: 'Bearer not-the-token' }],
	])('answers 401 with WWW-Authenticate for %s', async (_name, headers) => {
		const response = await as(headers).get('/contacts');
		expect([response.status, response.headers['www-authenticate'], response.data]).toEqual([401, 'Bearer', failed('unauthorized')]);
	});

	it('lets the read-only token read, answers its writes 403 and changes nothing; the log names the auth, never a token', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.clearRequests();
		const readOnly = as({ Authorization: `Bearer ${sandbox.readOnlyToken}` });
		expect((await readOnly.get(`/contacts/${contact.id}`)).data).toEqual(ok(contact));
		for (const write of [readOnly.post('/contacts', { first_name: 'Eve' }), readOnly.put(`/contacts/${contact.id}`, { first_name: 'Eve' }), readOnly.delete(`/contacts/${contact.id}`)]) {
			expect((await write).data).toEqual(failed('forbidden'));
		}
		expect(await sandbox.admin.records('contacts')).toEqual([contact]);
		await as({ Authorization: 'Bearer wrong-token-value' }).get('/contacts');
		const log = await sandbox.admin.requests();
		expect(log.map((entry) => [entry.auth, entry.status])).toEqual([['readonly', 200], ['readonly', 403], ['readonly', 403], ['readonly', 403], ['invalid', 401]]);
		expect(JSON.stringify(log)).not.toMatch(new RegExp(`${sandbox.readOnlyToken}|wrong-token-value`));
	});
});

describe('the choices of docs/api-assumptions.md', () => {
	const post = (body: string) => sandbox.api.post('/contacts', body, { headers: { 'Content-Type': 'application/json' }, transformRequest: (d) => d });

	it.each(['{"first_name": "Anna",', '[{"first_name": "Anna"}]', 'null'])('400 bad_request for the body %s, storing nothing', async (body) => {
		expect([(await post(body)).data, await sandbox.admin.records('contacts')]).toEqual([failed('bad_request'), []]);
	});

	it.each(['/contacts?page=abc', '/contacts?per_page=0', '/contacts?sort=favourite_colour', '/contacts?created_after=yesterday', '/invoices?contact_id=abc', '/invoices?due_before=31.01.2026', '/products?sort=name', '/products?active=yes'])(
		'400 bad_request for the query %s',
		async (path) => expect((await sandbox.api.get(path)).data).toEqual(failed('bad_request')),
	);

	it('ignores unknown fields and query parameters, trims strings, reads "" as no value, merges custom_fields', async () => {
		const { id } = (await sandbox.api.post('/contacts', { first_name: ' Anna ', email: '', colour: 'blue', custom_fields: { tier: 'gold', vip: true } })).data.data;
		expect((await sandbox.api.get(`/contacts/${id}?colour=blue`)).data.data).toEqual(expect.objectContaining({ first_name: 'Anna', email: null, custom_fields: { tier: 'gold', vip: true } }));
		expect((await sandbox.api.get(`/contacts/${id}`)).data.data).not.toHaveProperty('colour');
		const updated = (await sandbox.api.put(`/contacts/${id}`, { phone: '', custom_fields: { tier: 'silver' } })).data.data;
		expect(updated).toMatchObject({ first_name: 'Anna', phone: null, custom_fields: { tier: 'silver', vip: true } });
	});

	it('never reuses a deleted id', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.api.delete(`/contacts/${contact.id}`);
		expect((await createContact(sandbox.api)).id).toBe(contact.id + 1);
	});

	it.each<[string, number, [number, number], object]>([
		['per_page=500', 1, [0, 100], { page: 1, per_page: 100, total: 130 }],
		['page=2&per_page=50', 2, [50, 100], { page: 2, per_page: 50, total: 130 }],
		['page=6', 6, [125, 130], { page: 6, per_page: 25, total: 130 }],
		['page=9', 9, [130, 130], { page: 9, per_page: 25, total: 130 }],
	])('paging ?%s: ascending ids, per_page capped at 100, a page past the end empty', async (query, _page, [from, to], meta) => {
		await sandbox.admin.seed({ contacts: 130 });
		const ids = (await sandbox.admin.records('contacts')).map((c) => c.id);
		const { data } = await sandbox.api.get(`/contacts?${query}`);
		expect([data.meta, data.data.map((c: { id: number }) => c.id)]).toEqual([meta, ids.slice(from, to)]);
	});

	it('created_after and created_before are exclusive bounds; sort=-updated_at follows updates', async () => {
		await sandbox.admin.seed({ contacts: 30, seed: 3 });
		const all = await sandbox.admin.records('contacts');
		const pivot = all[10].created_at;
		const ids = async (query: string) => (await sandbox.api.get(`/contacts?per_page=100&${query}`)).data.data.map((c: { id: number }) => c.id);
		expect(await ids(`created_after=${pivot}`)).toEqual(all.filter((c) => c.created_at > pivot).map((c) => c.id));
		expect(await ids(`created_before=${pivot}`)).toEqual(all.filter((c) => c.created_at < pivot).map((c) => c.id));
		await sandbox.api.put('/contacts/5', { notes: 'called back' });
		expect((await ids('sort=-updated_at'))[0]).toBe(5);
	});

	it('paging of payroll: newest period first, in the documented shape', async () => {
		await sandbox.admin.seed({ employees: 40, seed: 2 });
		const payroll = await sandbox.admin.records('payroll');
		const employeeId = payroll[0].employee_id;
		const own = payroll.filter((r) => r.employee_id === employeeId);
		const { data } = await sandbox.api.get(`/employees/${employeeId}/payroll?per_page=5&page=2`);
		expect(data.meta).toEqual({ page: 2, per_page: 5, total: own.length });
		expect(data.data.map((r: { period: string }) => r.period)).toEqual(own.map((r) => r.period).sort().reverse().slice(5, 10));
		expect(Object.keys(data.data[0]).sort()).toEqual(['currency', 'deductions', 'employee_id', 'gross', 'id', 'net', 'pay_date', 'period', 'period_end', 'period_start']);
	});

	// Invoices by status, products by active and low_stock: through Get Many (test/nodes/Erp/operations/resources.test.ts).
	describe('filters and sorts, on one small world', () => {
		beforeEach(async () => {
			await world();
			await createContact(sandbox.api, { first_name: 'Carla', last_name: 'Meyer', email: 'carla@nordwind.de', company: 'Nordwind GmbH' });
			await createInvoice(sandbox.api, 2, { currency: 'USD', issue_date: '2026-01-01', due_date: '2026-02-15' });
			await sandbox.api.post('/invoices/2/send');
			await sandbox.api.post('/invoices/1/mark-paid');
			await createProduct(sandbox.api, { sku: 'HWR-001', name: 'Hex Bolt', active: false, low_stock_threshold: 0 });
			await createEmployee(sandbox.api, { first_name: 'Mia', last_name: 'Weberling', email: 'mia@acme.com', department: 'Sales', employment_type: 'contractor', hire_date: '2022-01-10' });
		});

		it.each([
			['/contacts?search=NORDWIND', [1, 3]],
			['/contacts?search=adl', [2]],
			['/contacts?email=ben@blue.co.uk', [2]],
			['/contacts?email=ben@blue', []],
			['/contacts?company=Nordwind%20GmbH&search=carla', [3]],
			['/contacts?company=Nordwind', []],
			['/contacts?sort=name', [2, 3, 1]],
			['/contacts?sort=-id', [3, 2, 1]],
			['/invoices?contact_id=2&status=sent', [2]],
			['/invoices?currency=USD', [2]],
			['/invoices?due_after=2026-02-15&due_before=2026-02-15', [2]],
			['/invoices?search=inv-000002', [2]],
			['/invoices?sort=due_date', [2, 1]],
			['/products?search=off', [1]],
			['/products?sku=HWR-001', [2]],
			['/products?sku=hwr-001', []],
			['/products?sort=-sku', [2, 1]],
			['/employees?search=weber', [1, 2]],
			['/employees?email=MIA@Acme.COM', [2]],
			['/employees?email=acme.com', []],
			['/employees?employment_type=contractor&department=Sales', [2]],
			['/employees?sort=hire_date', [2, 1]],
		])('%s gives %j', async (path, ids) => {
			const { data } = await sandbox.api.get(path);
			expect([data.data.map((r: { id: number }) => r.id), data.meta.total]).toEqual([ids, ids.length]);
		});
	});

	it('the overdue sweep turns sent invoices due before the day into overdue, nothing else, and runs as of a given day', async () => {
		const contact = await createContact(sandbox.api);
		const late = { issue_date: daysFromToday(-40), due_date: daysFromToday(-1) };
		const [sent, dueToday, , paid] = [
			await createInvoice(sandbox.api, contact.id, late),
			await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-30), due_date: today }),
			await createInvoice(sandbox.api, contact.id, late),
			await createInvoice(sandbox.api, contact.id, late),
		];
		for (const invoice of [sent, dueToday, paid]) await sandbox.api.post(`/invoices/${invoice.id}/send`);
		await sandbox.api.post(`/invoices/${paid.id}/mark-paid`);
		expect(await sandbox.admin.sweep()).toEqual({ overdue: [sent.id] });
		const statuses = async () => (await sandbox.admin.records('invoices')).map((i) => i.status);
		expect(await statuses()).toEqual(['overdue', 'sent', 'draft', 'paid']);
		expect((await sandbox.api.post(`/invoices/${sent.id}/send`)).data.data.status).toBe('overdue');
		expect(await sandbox.admin.sweep(daysFromToday(1))).toEqual({ overdue: [dueToday.id] });
		expect((await sandbox.api.post(`/invoices/${sent.id}/mark-paid`)).data.data.status).toBe('paid');
	});

	it('the overdue sweep runs on a timer (the demo keeps the default)', async () => {
		const timed = await startTestSandbox({ overdueSweepMs: 20 });
		try {
			const invoice = await createInvoice(timed.api, (await createContact(timed.api)).id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
			await timed.api.post(`/invoices/${invoice.id}/send`);
			await waitFor(async () => (await timed.admin.record('invoices', invoice.id))?.status === 'overdue');
		} finally {
			await timed.close();
		}
	});

	it('send needs a recipient: 422 email for a contact without one, unless the body names one', async () => {
		const silent = await createContact(sandbox.api, { email: null });
		const invoice = await createInvoice(sandbox.api, silent.id);
		expect((await sandbox.api.post(`/invoices/${invoice.id}/send`)).data).toEqual(invalid({ email: [expect.any(String)] }));
		expect((await sandbox.api.post(`/invoices/${invoice.id}/send`, { email: 'billing@example.com' })).data.data.status).toBe('sent');
	});
});
