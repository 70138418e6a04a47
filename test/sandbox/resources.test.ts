import type { Product, Employee, Contact, Invoice } from '../../sandbox/types';
import { startTestSandbox, type TestSandbox, useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createInvoice, ISO_MS, createProduct, PRODUCT_DEFAULTS, createEmployee, todayUtc, daysFromToday } from './fixtures';

const sandbox = useTestSandbox();

describe('POST /contacts', () => {
	it('answers 201 with exactly id, first_name and created_at', async () => {
		const response = await sandbox.api.post('/contacts', {
			first_name: 'Anna',
			last_name: 'Schmidt',
			email: 'anna@example.com',
			phone: '+49 30 1234567',
			company: 'Nordwind GmbH',
		});
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: { id: expect.any(Number), first_name: 'Anna', created_at: expect.stringMatching(ISO_MS) },
		});
		expect(Number.isInteger(response.data.data.id)).toBe(true);
	});

	it('stores every field, with null for the ones not sent, and GET returns the full contact', async () => {
		const created = (await sandbox.api.post('/contacts', { first_name: 'Anna', email: 'anna@example.com', custom_fields: { tier: 'gold', vip: true, score: 3, note: null } })).data.data;
		const response = await sandbox.api.get(`/contacts/${created.id}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: created.id,
				first_name: 'Anna',
				last_name: null,
				email: 'anna@example.com',
				phone: null,
				company: null,
				notes: null,
				custom_fields: { tier: 'gold', vip: true, score: 3, note: null },
				created_at: created.created_at,
				updated_at: created.created_at,
			},
		});
	});

	it('assigns increasing ids and ignores unknown fields', async () => {
		const first = (await sandbox.api.post('/contacts', { first_name: 'A', favourite_colour: 'blue' })).data.data;
		const second = (await sandbox.api.post('/contacts', { first_name: 'B' })).data.data;
		expect(second.id).toBeGreaterThan(first.id);
		expect((await sandbox.api.get(`/contacts/${first.id}`)).data.data).not.toHaveProperty('favourite_colour');
	});

	it('trims strings and reads "" as not given', async () => {
		const { id } = (await sandbox.api.post('/contacts', { first_name: '  Anna ', email: '', company: '' })).data.data;
		const contact = (await sandbox.api.get(`/contacts/${id}`)).data.data;
		expect(contact).toMatchObject({ first_name: 'Anna', email: null, company: null });
	});

	it.each(['+49 30 1234567', '+1 (415) 555-0123', '+33.1.23.45.67.89', '+4930123456789', '+44 20-7946-0123'])(
		'accepts the international phone %s',
		async (phone) => {
			expect((await sandbox.api.post('/contacts', { first_name: 'A', phone })).status).toBe(201);
		},
	);

	it.each([
		['first_name missing', { last_name: 'Schmidt' }, { first_name: ['is required'] }],
		['first_name blank', { first_name: '   ' }, { first_name: ['is required'] }],
		['first_name not a string', { first_name: 42 }, { first_name: ['must be a string'] }],
		['first_name too long', { first_name: 'x'.repeat(101) }, { first_name: ['must be at most 100 characters'] }],
		['last_name too long', { first_name: 'A', last_name: 'x'.repeat(101) }, { last_name: ['must be at most 100 characters'] }],
		['company too long', { first_name: 'A', company: 'x'.repeat(201) }, { company: ['must be at most 200 characters'] }],
		['email without a domain', { first_name: 'A', email: 'anna@' }, { email: [expect.stringContaining('e-mail')] }],
		['email without a dot', { first_name: 'A', email: 'anna@localhost' }, { email: [expect.stringContaining('e-mail')] }],
		['phone without +', { first_name: 'A', phone: '030 1234567' }, { phone: [expect.stringContaining('international')] }],
		['phone too short', { first_name: 'A', phone: '+49 123' }, { phone: [expect.stringContaining('international')] }],
		['phone too long', { first_name: 'A', phone: '+1234567890123456' }, { phone: [expect.stringContaining('international')] }],
		['phone with letters', { first_name: 'A', phone: '+49 30 CALL-NOW' }, { phone: [expect.stringContaining('international')] }],
		['custom_fields not an object', { first_name: 'A', custom_fields: ['x'] }, { custom_fields: ['must be an object'] }],
		['custom_fields with a nested value', { first_name: 'A', custom_fields: { a: { b: 1 } } }, { 'custom_fields.a': [expect.any(String)] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/contacts', body);
		expect(response.status).toBe(422);
		expect(response.data).toEqual({ success: false, error: { code: 'validation_failed', message: expect.any(String), fields } });
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('reports every broken field at once', async () => {
		const response = await sandbox.api.post('/contacts', { email: 'nope', phone: '12' });
		expect(Object.keys(response.data.error.fields).sort()).toEqual(['email', 'first_name', 'phone']);
	});
});

describe('PUT /contacts/{id}', () => {
	it('changes only the fields sent and answers the full contact', async () => {
		const contact = await createContact(sandbox.api, { custom_fields: { tier: 'gold', region: 'north' } });
		const response = await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Blue Harbor Ltd', custom_fields: { tier: 'silver' } });
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({
			...contact,
			company: 'Blue Harbor Ltd',
			custom_fields: { tier: 'silver', region: 'north' },
			updated_at: expect.stringMatching(ISO_MS),
		});
		expect(response.data.data.updated_at >= contact.updated_at).toBe(true);
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).data.data).toEqual(response.data.data);
	});

	it('clears an optional field given null or ""', async () => {
		const contact = await createContact(sandbox.api);
		const response = await sandbox.api.put(`/contacts/${contact.id}`, { phone: null, company: '' });
		expect(response.data.data).toMatchObject({ phone: null, company: null, email: contact.email });
	});

	it.each([
		['an empty body', {}, { body: ['no fields to update'] }],
		['only unknown fields', { favourite_colour: 'blue' }, { body: ['no fields to update'] }],
		['first_name null', { first_name: null }, { first_name: ['is required'] }],
		['a bad e-mail', { email: 'nope' }, { email: [expect.any(String)] }],
	])('answers 422 for %s and changes nothing', async (_name, body, fields) => {
		const contact = await createContact(sandbox.api);
		const response = await sandbox.api.put(`/contacts/${contact.id}`, body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).data.data).toEqual(contact);
	});

});

describe('DELETE /contacts/{id}', () => {
	it('deletes for good: 200 {id, deleted: true}, then 404', async () => {
		const contact = await createContact(sandbox.api);
		const response = await sandbox.api.delete(`/contacts/${contact.id}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({ success: true, data: { id: contact.id, deleted: true } });
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).status).toBe(404);
		expect((await sandbox.api.delete(`/contacts/${contact.id}`)).status).toBe(404);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('never reuses a deleted id', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.api.delete(`/contacts/${contact.id}`);
		expect((await createContact(sandbox.api)).id).toBeGreaterThan(contact.id);
	});

	it('refuses a contact with invoices: 422 fields.id', async () => {
		const contact = await createContact(sandbox.api);
		await createInvoice(sandbox.api, contact.id);
		const response = await sandbox.api.delete(`/contacts/${contact.id}`);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields: { id: ['contact has invoices'] } });
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).status).toBe(200);
	});
});

describe('GET /contacts filters and sort', () => {
	const ids = (response: { data: { data: Array<{ id: number }> } }) => response.data.data.map((c) => c.id);

	async function three() {
		const a = await createContact(sandbox.api, { first_name: 'Anna', last_name: 'Zimmer', email: 'anna@nordwind.de', company: 'Nordwind GmbH' });
		const b = await createContact(sandbox.api, { first_name: 'Ben', last_name: 'Adler', email: 'ben@blue.co.uk', company: 'Blue Harbor Ltd' });
		const c = await createContact(sandbox.api, { first_name: 'Carla', last_name: 'Meyer', email: 'carla@nordwind.de', company: 'Nordwind GmbH' });
		return { a, b, c };
	}

	it('search: case-insensitive substring of first name, last name, e-mail or company', async () => {
		const { a, b, c } = await three();
		expect(ids(await sandbox.api.get('/contacts?search=ANNA'))).toEqual([a.id]);
		expect(ids(await sandbox.api.get('/contacts?search=adl'))).toEqual([b.id]);
		expect(ids(await sandbox.api.get('/contacts?search=nordwind'))).toEqual([a.id, c.id]);
		expect(ids(await sandbox.api.get('/contacts?search=blue.co'))).toEqual([b.id]);
		const none = await sandbox.api.get('/contacts?search=zebra');
		expect(none.data).toEqual({ success: true, data: [], meta: { page: 1, per_page: 25, total: 0 } });
	});

	it('email and company: exact match', async () => {
		const { a, c } = await three();
		expect(ids(await sandbox.api.get('/contacts?email=anna@nordwind.de'))).toEqual([a.id]);
		expect(ids(await sandbox.api.get('/contacts?email=anna@nordwind'))).toEqual([]);
		expect(ids(await sandbox.api.get(`/contacts?company=${encodeURIComponent('Nordwind GmbH')}`))).toEqual([a.id, c.id]);
		expect(ids(await sandbox.api.get('/contacts?company=Nordwind'))).toEqual([]);
	});

	it('filters combine (AND) and meta.total counts the matches', async () => {
		const { c } = await three();
		const response = await sandbox.api.get('/contacts?company=Nordwind%20GmbH&search=carla');
		expect(ids(response)).toEqual([c.id]);
		expect(response.data.meta.total).toBe(1);
	});

	it('created_after and created_before are exclusive bounds', async () => {
		await sandbox.admin.seed({ contacts: 30, seed: 3 });
		const all = await sandbox.admin.records('contacts');
		const pivot = all[10].created_at;
		const after = await sandbox.api.get(`/contacts?per_page=100&created_after=${pivot}`);
		const before = await sandbox.api.get(`/contacts?per_page=100&created_before=${pivot}`);
		expect(ids(after)).toEqual(all.filter((c) => c.created_at > pivot).map((c) => c.id));
		expect(ids(before)).toEqual(all.filter((c) => c.created_at < pivot).map((c) => c.id));
		expect(after.data.meta.total + before.data.meta.total).toBe(29);
	});

	it('sort by name (last name), descending with "-", by created_at and by -id', async () => {
		const { a, b, c } = await three();
		expect(ids(await sandbox.api.get('/contacts?sort=name'))).toEqual([b.id, c.id, a.id]);
		expect(ids(await sandbox.api.get('/contacts?sort=-name'))).toEqual([a.id, c.id, b.id]);
		expect(ids(await sandbox.api.get('/contacts?sort=created_at'))).toEqual([a.id, b.id, c.id]);
		expect(ids(await sandbox.api.get('/contacts?sort=-id'))).toEqual([c.id, b.id, a.id]);
	});

	it('a filtered list follows creates and updates made between its pages', async () => {
		const { a, c } = await three();
		const nordwind = (page: number) => sandbox.api.get(`/contacts?company=${encodeURIComponent('Nordwind GmbH')}&per_page=1&page=${page}`);
		expect(ids(await nordwind(1))).toEqual([a.id]);
		const d = await createContact(sandbox.api, { first_name: 'Dora', email: 'dora@nordwind.de', company: 'Nordwind GmbH' });
		await sandbox.api.put(`/contacts/${c.id}`, { company: 'Elsewhere' });
		expect(ids(await nordwind(2))).toEqual([d.id]);
		expect((await nordwind(2)).data.meta.total).toBe(2);
	});

	it('sort by updated_at follows updates', async () => {
		const { a, b, c } = await three();
		await new Promise((resolve) => setTimeout(resolve, 5));
		await sandbox.api.put(`/contacts/${a.id}`, { notes: 'called back' });
		expect(ids(await sandbox.api.get('/contacts?sort=updated_at'))).toEqual([b.id, c.id, a.id]);
		expect(ids(await sandbox.api.get('/contacts?sort=-updated_at&per_page=1'))).toEqual([a.id]);
	});
});

describe('POST /products', () => {
	it('creates with the documented defaults and no stock', async () => {
		const response = await sandbox.api.post('/products', { sku: 'CHAIR-1', name: 'Office Chair' });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: 1,
				sku: 'CHAIR-1',
				name: 'Office Chair',
				...PRODUCT_DEFAULTS,
				stock_total: 0,
				created_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			},
		});
		expect((await sandbox.api.get('/products/1')).data.data).toEqual(response.data.data);
	});

	it('keeps every given field and ignores stock_total', async () => {
		const product = await createProduct(sandbox.api, {
			description: 'Mesh back',
			unit_price: 249.9,
			currency: 'CHF',
			unit: 'box',
			low_stock_threshold: 0,
			active: false,
			stock_total: 99,
			custom_fields: { ean: '4006381333931' },
		});
		expect(product).toMatchObject({ description: 'Mesh back', unit_price: 249.9, currency: 'CHF', unit: 'box', low_stock_threshold: 0, active: false, stock_total: 0, custom_fields: { ean: '4006381333931' } });
	});

	it.each([
		['sku and name missing', {}, { sku: ['is required'], name: ['is required'] }],
		['sku with a space', { sku: 'CHAIR 1', name: 'x' }, { sku: [expect.any(String)] }],
		['sku of 65 characters', { sku: 'A'.repeat(65), name: 'x' }, { sku: [expect.any(String)] }],
		['name of 201 characters', { sku: 'A', name: 'x'.repeat(201) }, { name: ['must be at most 200 characters'] }],
		['a negative price', { sku: 'A', name: 'x', unit_price: -5 }, { unit_price: ['must be at least 0'] }],
		['a price with 3 decimals', { sku: 'A', name: 'x', unit_price: 9.999 }, { unit_price: ['must have at most 2 decimals'] }],
		['a fractional threshold', { sku: 'A', name: 'x', low_stock_threshold: 2.5 }, { low_stock_threshold: ['must be an integer'] }],
		['a negative threshold', { sku: 'A', name: 'x', low_stock_threshold: -1 }, { low_stock_threshold: ['must be at least 0'] }],
		['active as a string', { sku: 'A', name: 'x', active: 'yes' }, { active: ['must be true or false'] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/products', body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
	});

	it('answers 422 for a SKU already taken', async () => {
		const first = await createProduct(sandbox.api, { sku: 'DESK-160' });
		const response = await sandbox.api.post('/products', { sku: 'DESK-160', name: 'Another desk' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ sku: [`is already taken by product ${first.id}`] });
		expect(await sandbox.admin.records('products')).toHaveLength(1);
	});
});

describe('PUT /products/{id}', () => {
	it('is a partial update answering the full product', async () => {
		const product = await createProduct(sandbox.api);
		const response = await sandbox.api.put(`/products/${product.id}`, { name: 'Office Chair Pro', unit_price: 299 });
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({ ...product, name: 'Office Chair Pro', unit_price: 299, updated_at: expect.stringMatching(ISO_MS) });
	});

	it('changes the SKU, freeing the old one', async () => {
		const product = await createProduct(sandbox.api, { sku: 'OLD-1' });
		expect((await sandbox.api.put(`/products/${product.id}`, { sku: 'NEW-1' })).data.data.sku).toBe('NEW-1');
		expect((await sandbox.api.put(`/products/${product.id}`, { sku: 'NEW-1' })).status).toBe(200);
		expect((await sandbox.api.post('/products', { sku: 'OLD-1', name: 'Reuse' })).status).toBe(201);
		const taken = await sandbox.api.put(`/products/${product.id}`, { sku: 'OLD-1' });
		expect(taken.status).toBe(422);
		expect(Object.keys(taken.data.error.fields)).toEqual(['sku']);
	});

	it.each([
		['an empty body', {}],
		['only stock (not writable)', { stock_total: 500 }],
		['name null', { name: null }],
		['a bad currency', { currency: 'euro' }],
	])('answers 422 for %s', async (_name, body) => {
		const product = await createProduct(sandbox.api);
		const response = await sandbox.api.put(`/products/${product.id}`, body);
		expect(response.status).toBe(422);
		expect((await sandbox.api.get(`/products/${product.id}`)).data.data).toEqual(product);
	});

});

describe('GET /products filters and sort', () => {
	async function catalog(): Promise<Product[]> {
		const chair = await createProduct(sandbox.api, { sku: 'OFF-200', name: 'Office Chair', low_stock_threshold: 10 });
		const desk = await createProduct(sandbox.api, { sku: 'OFF-100', name: 'Standing Desk', low_stock_threshold: 5 });
		const bolt = await createProduct(sandbox.api, { sku: 'HWR-001', name: 'Hex Bolt M8', active: false, low_stock_threshold: 0 });
		await sandbox.admin.setStock({ product_id: desk.id, warehouse_id: 1, quantity: 5 });
		return [chair, desk, bolt];
	}
	const ids = async (query: string) => (await sandbox.api.get(`/products?${query}`)).data.data.map((p: Product) => p.id);

	it('search matches name or SKU, case-insensitively; sku is exact', async () => {
		const [chair, desk, bolt] = await catalog();
		expect(await ids('search=chair')).toEqual([chair.id]);
		expect(await ids('search=off-')).toEqual([chair.id, desk.id]);
		expect(await ids('sku=HWR-001')).toEqual([bolt.id]);
		expect(await ids('sku=hwr-001')).toEqual([]);
	});

	it('sorts by sku', async () => {
		const [chair, desk, bolt] = await catalog();
		expect(await ids('sort=sku')).toEqual([bolt.id, desk.id, chair.id]);
		expect(await ids('sort=-sku')).toEqual([chair.id, desk.id, bolt.id]);
	});

	it.each(['active=yes', 'low_stock=1', 'sort=name'])('answers 400 for %s', async (query) => {
		expect((await sandbox.api.get(`/products?${query}`)).status).toBe(400);
	});
});

describe('POST /employees', () => {
	it('creates an active employee with the documented defaults', async () => {
		const response = await sandbox.api.post('/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas@example.com' });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: 1,
				employee_number: 'EMP-0001',
				first_name: 'Lukas',
				last_name: 'Weber',
				email: 'lukas@example.com',
				phone: null,
				job_title: null,
				department: null,
				employment_type: 'full_time',
				hire_date: todayUtc(),
				salary: null,
				currency: 'EUR',
				status: 'active',
				custom_fields: {},
				created_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			},
		});
		expect((await sandbox.api.get('/employees/1')).data.data).toEqual(response.data.data);
	});

	it('keeps every given field', async () => {
		const employee = await createEmployee(sandbox.api, {
			phone: '+44 20 7946 0123',
			job_title: 'Accountant',
			department: 'Finance',
			employment_type: 'part_time',
			hire_date: '2026-03-01',
			salary: 30000.5,
			currency: 'GBP',
		});
		expect(employee).toMatchObject({ phone: '+44 20 7946 0123', job_title: 'Accountant', department: 'Finance', employment_type: 'part_time', hire_date: '2026-03-01', salary: 30000.5, currency: 'GBP' });
	});

	it.each([
		['every required field missing', {}, { first_name: ['is required'], last_name: ['is required'], email: ['is required'] }],
		['a bad e-mail', { first_name: 'A', last_name: 'B', email: 'a.b' }, { email: [expect.any(String)] }],
		['an unknown employment type', { first_name: 'A', last_name: 'B', email: 'a@b.de', employment_type: 'intern' }, { employment_type: [expect.stringContaining('full_time')] }],
		['a salary of 0', { first_name: 'A', last_name: 'B', email: 'a@b.de', salary: 0 }, { salary: ['must be greater than 0'] }],
		['a malformed hire date', { first_name: 'A', last_name: 'B', email: 'a@b.de', hire_date: '01/03/2026' }, { hire_date: [expect.any(String)] }],
		['a local phone number', { first_name: 'A', last_name: 'B', email: 'a@b.de', phone: '0151 2345678' }, { phone: [expect.any(String)] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/employees', body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
	});

	it('answers 422 for an e-mail already used by an employee, in any letter case', async () => {
		const first = await createEmployee(sandbox.api, { email: 'lukas.weber@example.com' });
		const response = await sandbox.api.post('/employees', { first_name: 'L', last_name: 'W', email: 'Lukas.Weber@Example.com' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ email: [`is already taken by employee ${first.id}`] });
	});

	it('has no update or delete endpoint', async () => {
		const employee = await createEmployee(sandbox.api);
		expect((await sandbox.api.put(`/employees/${employee.id}`, { job_title: 'x' })).status).toBe(404);
		expect((await sandbox.api.delete(`/employees/${employee.id}`)).status).toBe(404);
	});
});

describe('GET /employees/{id}/payroll', () => {
	it('is an empty list for a new hire', async () => {
		const employee = await createEmployee(sandbox.api, { salary: 50000 });
		const response = await sandbox.api.get(`/employees/${employee.id}/payroll`);
		expect(response.data).toEqual({ success: true, data: [], meta: { page: 1, per_page: 25, total: 0 } });
	});

	it('lists seeded monthly pay runs, newest first, in the documented shape', async () => {
		await sandbox.admin.seed({ employees: 20, seed: 4 });
		const employees = await sandbox.admin.records('employees');
		const paid = employees.find((e) => e.salary !== null && e.hire_date < '2024-01-01') as Employee;
		const response = await sandbox.api.get(`/employees/${paid.id}/payroll?per_page=100`);
		const runs = response.data.data;
		expect(runs.length).toBeGreaterThan(0);
		for (const run of runs) {
			expect(run).toEqual({
				id: expect.any(Number),
				employee_id: paid.id,
				period: expect.stringMatching(/^\d{4}-\d{2}$/),
				period_start: expect.stringMatching(/^\d{4}-\d{2}-01$/),
				period_end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
				pay_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
				gross: expect.any(Number),
				deductions: expect.any(Number),
				net: expect.any(Number),
				currency: paid.currency,
			});
			expect(run.period_start.startsWith(run.period)).toBe(true);
			expect(run.period_end.startsWith(run.period)).toBe(true);
		}
		const periods = runs.map((r: { period: string }) => r.period);
		expect(periods).toEqual([...periods].sort().reverse());
	});
});

describe('GET /employees filters and sort', () => {
	async function staff(): Promise<Employee[]> {
		return [
			await createEmployee(sandbox.api, { first_name: 'Lukas', last_name: 'Weber', email: 'lukas@acme.com', department: 'Finance', hire_date: '2024-05-01' }),
			await createEmployee(sandbox.api, { first_name: 'Mia', last_name: 'Keller', email: 'mia@acme.com', department: 'Sales', employment_type: 'contractor', hire_date: '2022-01-10' }),
			await createEmployee(sandbox.api, { first_name: 'Noah', last_name: 'Weberling', email: 'noah@acme.com', department: 'Finance', hire_date: '2025-09-15' }),
		];
	}
	const ids = async (query: string) => (await sandbox.api.get(`/employees?${query}`)).data.data.map((e: Employee) => e.id);

	it('search by name or e-mail; department, status and employment_type exact', async () => {
		const [lukas, mia, noah] = await staff();
		expect(await ids('search=weber')).toEqual([lukas.id, noah.id]);
		expect(await ids('search=MIA@')).toEqual([mia.id]);
		expect(await ids('department=Finance')).toEqual([lukas.id, noah.id]);
		expect(await ids('department=finance')).toEqual([]);
		expect(await ids('employment_type=contractor')).toEqual([mia.id]);
		expect(await ids('status=active')).toEqual([lukas.id, mia.id, noah.id]);
		expect(await ids('status=terminated')).toEqual([]);
	});

	it('email: the whole address, in any letter case (the uniqueness rule), never a part of it', async () => {
		const [lukas, mia] = await staff();
		expect(await ids('email=lukas@acme.com')).toEqual([lukas.id]);
		expect(await ids('email=MIA@Acme.COM')).toEqual([mia.id]);
		expect(await ids('email=acme.com')).toEqual([]);
		expect(await ids('email=lukas@acme.co')).toEqual([]);
		expect(await ids('email=nobody@acme.com&search=weber')).toEqual([]);
	});

	it('sorts by hire_date', async () => {
		const [lukas, mia, noah] = await staff();
		expect(await ids('sort=hire_date')).toEqual([mia.id, lukas.id, noah.id]);
		expect(await ids('sort=-hire_date')).toEqual([noah.id, lukas.id, mia.id]);
	});
});

describe('invoices', () => {
	let sandbox: TestSandbox;
	let contact: Contact;

	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(() => sandbox.close());
	beforeEach(async () => {
		await sandbox.admin.reset();
		contact = await createContact(sandbox.api);
	});

	const get = async (id: number): Promise<Invoice> => (await sandbox.api.get(`/invoices/${id}`)).data.data;

	describe('POST /invoices', () => {
		it('creates a draft with computed totals and the documented defaults', async () => {
			const response = await sandbox.api.post('/invoices', {
				contact_id: contact.id,
				lines: [
					{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 },
					{ description: 'Setup fee', unit_price: 100 },
				],
			});
			expect(response.status).toBe(201);
			const invoice = response.data.data;
			expect(invoice).toEqual({
				id: 1,
				number: 'INV-000001',
				contact_id: contact.id,
				status: 'draft',
				currency: 'EUR',
				issue_date: todayUtc(),
				due_date: daysFromToday(30),
				lines: [
					{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 },
					{ description: 'Setup fee', quantity: 1, unit_price: 100, tax_rate: 0 },
				],
				// 3 × 19.99 = 59.97 (+19% = 11.3943) and 100 (no tax).
				subtotal: 159.97,
				tax_total: 11.39,
				total: 171.36,
				amount_due: 171.36,
				notes: null,
				custom_fields: {},
				sent_at: null,
				paid_at: null,
				payment_method: null,
				payment_reference: null,
				created_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			});
			expect(await get(invoice.id)).toEqual(invoice);
		});

		it('keeps given dates, currency, notes and custom fields', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id, {
				currency: 'USD',
				issue_date: '2026-01-10',
				due_date: '2026-01-24',
				notes: 'Net 14',
				custom_fields: { po_number: 'PO-77' },
			});
			expect(invoice).toMatchObject({ currency: 'USD', issue_date: '2026-01-10', due_date: '2026-01-24', notes: 'Net 14', custom_fields: { po_number: 'PO-77' } });
		});

		it.each([
			['contact_id missing', { lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['is required'] }],
			['contact_id unknown', { contact_id: 999, lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['contact 999 does not exist'] }],
			['contact_id not an integer', { contact_id: '1', lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['must be a number'] }],
			['lines missing', { contact_id: 1 }, { lines: ['is required'] }],
			['lines empty', { contact_id: 1, lines: [] }, { lines: ['must contain at least one line'] }],
			['lines not a list', { contact_id: 1, lines: { description: 'x' } }, { lines: ['must be a list of lines'] }],
			['a line not an object', { contact_id: 1, lines: ['x'] }, { 'lines[0]': ['must be an object'] }],
			['a line without description or price', { contact_id: 1, lines: [{ quantity: 1 }] }, { 'lines[0].description': ['is required'], 'lines[0].unit_price': ['is required'] }],
			['quantity 0', { contact_id: 1, lines: [{ description: 'x', unit_price: 1, quantity: 0 }] }, { 'lines[0].quantity': ['must be greater than 0'] }],
			['a negative price', { contact_id: 1, lines: [{ description: 'x', unit_price: -1 }] }, { 'lines[0].unit_price': ['must be at least 0'] }],
			['a price with 3 decimals', { contact_id: 1, lines: [{ description: 'x', unit_price: 1.234 }] }, { 'lines[0].unit_price': ['must have at most 2 decimals'] }],
			['tax_rate over 100', { contact_id: 1, lines: [{ description: 'x', unit_price: 1 }, { description: 'y', unit_price: 1, tax_rate: 101 }] }, { 'lines[1].tax_rate': ['must be at most 100'] }],
			['a lower-case currency', { contact_id: 1, currency: 'eur', lines: [{ description: 'x', unit_price: 1 }] }, { currency: [expect.stringContaining('ISO 4217')] }],
			['an impossible date', { contact_id: 1, issue_date: '2026-02-30', lines: [{ description: 'x', unit_price: 1 }] }, { issue_date: ['must be a date in the form YYYY-MM-DD'] }],
			['due before issue', { contact_id: 1, issue_date: '2026-03-10', due_date: '2026-03-09', lines: [{ description: 'x', unit_price: 1 }] }, { due_date: ['must not be before issue_date'] }],
		])('answers 422 for %s', async (_name, body, fields) => {
			const response = await sandbox.api.post('/invoices', body);
			expect(response.status).toBe(422);
			expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
			expect(await sandbox.admin.records('invoices')).toEqual([]);
		});

		it('has no update or delete endpoint', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			expect((await sandbox.api.put(`/invoices/${invoice.id}`, { notes: 'x' })).status).toBe(404);
			expect((await sandbox.api.delete(`/invoices/${invoice.id}`)).status).toBe(404);
		});

	});

	describe('POST /invoices/{id}/send', () => {
		it('turns a draft into sent and sets sent_at', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
			expect(response.status).toBe(200);
			expect(response.data.data).toEqual({ ...invoice, status: 'sent', sent_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) });
			expect(await get(invoice.id)).toEqual(response.data.data);
		});

		it('keeps sent (a reminder) and overdue, refreshing sent_at', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
			const first = (await sandbox.api.post(`/invoices/${invoice.id}/send`)).data.data;
			await new Promise((resolve) => setTimeout(resolve, 5));
			const again = (await sandbox.api.post(`/invoices/${invoice.id}/send`)).data.data;
			expect(again.status).toBe('sent');
			expect(again.sent_at > first.sent_at).toBe(true);
			await sandbox.admin.sweep();
			const reminder = await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
			expect(reminder.status).toBe(200);
			expect(reminder.data.data.status).toBe('overdue');
		});

		it('answers 422 for a paid invoice', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
			expect(response.status).toBe(422);
			expect(response.data.error.fields).toEqual({ status: ['invoice is already paid'] });
			expect((await get(invoice.id)).status).toBe('paid');
		});

		it('needs a recipient: 422 when the contact has no e-mail and none is given', async () => {
			const silent = await createContact(sandbox.api, { email: null });
			const invoice = await createInvoice(sandbox.api, silent.id);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
			expect(response.status).toBe(422);
			expect(Object.keys(response.data.error.fields)).toEqual(['email']);
			expect((await get(invoice.id)).status).toBe('draft');
			const sent = await sandbox.api.post(`/invoices/${invoice.id}/send`, { email: 'billing@example.com' });
			expect(sent.status).toBe(200);
			expect(sent.data.data.status).toBe('sent');
		});

		it('answers 422 for a malformed recipient address', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/send`, { email: 'not-an-address' });
			expect(response.status).toBe(422);
			expect(Object.keys(response.data.error.fields)).toEqual(['email']);
		});
	});

	describe('POST /invoices/{id}/mark-paid', () => {
		it('marks any unpaid state paid: paid_at now, amount_due 0', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			const before = new Date().toISOString();
			const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`);
			expect(response.status).toBe(200);
			const paid = response.data.data;
			expect(paid).toEqual({
				...invoice,
				status: 'paid',
				amount_due: 0,
				paid_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			});
			expect(paid.paid_at >= before).toBe(true);
			expect(paid.total).toBe(invoice.total);
		});

		it('stores the given paid_at (normalised to UTC), method and reference', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			await sandbox.api.post(`/invoices/${invoice.id}/send`);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {
				paid_at: '2025-01-05T10:00:00+01:00',
				payment_method: 'bank_transfer',
				reference: 'TRX-123',
			});
			expect(response.data.data).toMatchObject({ status: 'paid', paid_at: '2025-01-05T09:00:00.000Z', payment_method: 'bank_transfer', payment_reference: 'TRX-123' });
		});

		it.each([
			['a future paid_at', { paid_at: '2999-01-01T00:00:00Z' }, 'paid_at'],
			['a malformed paid_at', { paid_at: 'last tuesday' }, 'paid_at'],
			['an unknown payment method', { payment_method: 'barter' }, 'payment_method'],
		])('answers 422 for %s', async (_name, body, field) => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, body);
			expect(response.status).toBe(422);
			expect(Object.keys(response.data.error.fields)).toEqual([field]);
			expect((await get(invoice.id)).status).toBe('draft');
		});

		it('pays an overdue invoice', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
			await sandbox.api.post(`/invoices/${invoice.id}/send`);
			await sandbox.admin.sweep();
			expect((await get(invoice.id)).status).toBe('overdue');
			expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data.status).toBe('paid');
		});
	});

	describe('overdue sweep', () => {
		it('turns sent invoices due before today into overdue, and nothing else', async () => {
			const past = { issue_date: daysFromToday(-40), due_date: daysFromToday(-1) };
			const sentLate = await createInvoice(sandbox.api, contact.id, past);
			const sentDueToday = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-30), due_date: todayUtc() });
			const draftLate = await createInvoice(sandbox.api, contact.id, past);
			const paidLate = await createInvoice(sandbox.api, contact.id, past);
			for (const invoice of [sentLate, sentDueToday]) await sandbox.api.post(`/invoices/${invoice.id}/send`);
			await sandbox.api.post(`/invoices/${paidLate.id}/send`);
			await sandbox.api.post(`/invoices/${paidLate.id}/mark-paid`);

			expect(await sandbox.admin.sweep()).toEqual({ overdue: [sentLate.id] });
			expect((await get(sentLate.id)).status).toBe('overdue');
			expect((await get(sentDueToday.id)).status).toBe('sent');
			expect((await get(draftLate.id)).status).toBe('draft');
			expect((await get(paidLate.id)).status).toBe('paid');
			expect(await sandbox.admin.sweep()).toEqual({ overdue: [] });
		});

		it('sweeps as of a given day', async () => {
			const invoice = await createInvoice(sandbox.api, contact.id);
			await sandbox.api.post(`/invoices/${invoice.id}/send`);
			expect(await sandbox.admin.sweep(invoice.due_date)).toEqual({ overdue: [] });
			expect(await sandbox.admin.sweep(daysFromToday(31))).toEqual({ overdue: [invoice.id] });
			expect((await get(invoice.id)).status).toBe('overdue');
		});

		it('runs on a timer', async () => {
			const timed = await startTestSandbox({ overdueSweepMs: 20 });
			try {
				const owner = await createContact(timed.api);
				const invoice = await createInvoice(timed.api, owner.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
				await timed.api.post(`/invoices/${invoice.id}/send`);
				const overdue = await waitForStatus(timed, invoice.id, 'overdue');
				expect(overdue.amount_due).toBe(invoice.total);
			} finally {
				await timed.close();
			}
		});
	});

	async function waitForStatus(target: TestSandbox, id: number, status: string): Promise<Invoice> {
		for (let i = 0; i < 500; i++) {
			const invoice: Invoice = (await target.api.get(`/invoices/${id}`)).data.data;
			if (invoice.status === status) return invoice;
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		throw new Error(`invoice ${id} never became ${status}`);
	}

	describe('GET /invoices filters and sort', () => {
		async function mixed() {
			const other = await createContact(sandbox.api, { first_name: 'Ben' });
			const a = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-31', currency: 'EUR' });
			const b = await createInvoice(sandbox.api, other.id, { issue_date: '2026-01-01', due_date: '2026-02-15', currency: 'USD' });
			const c = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-10', currency: 'EUR' });
			await sandbox.api.post(`/invoices/${b.id}/send`);
			await sandbox.api.post(`/invoices/${c.id}/mark-paid`);
			return { other, a, b, c };
		}
		const ids = async (query: string) => (await sandbox.api.get(`/invoices?${query}`)).data.data.map((i: Invoice) => i.id);

		it('filters by status, contact_id and currency', async () => {
			const { other, a, b, c } = await mixed();
			expect(await ids('status=draft')).toEqual([a.id]);
			expect(await ids('status=sent')).toEqual([b.id]);
			expect(await ids('status=paid')).toEqual([c.id]);
			expect(await ids(`contact_id=${contact.id}`)).toEqual([a.id, c.id]);
			expect(await ids(`contact_id=${other.id}&status=sent`)).toEqual([b.id]);
			expect(await ids('currency=USD')).toEqual([b.id]);
		});

		it('due_before and due_after are inclusive dates', async () => {
			const { a, b, c } = await mixed();
			expect(await ids('due_before=2026-01-31')).toEqual([a.id, c.id]);
			expect(await ids('due_after=2026-01-31')).toEqual([a.id, b.id]);
			expect(await ids('due_after=2026-01-10&due_before=2026-01-10')).toEqual([c.id]);
		});

		it('search matches the invoice number', async () => {
			const { b } = await mixed();
			expect(await ids(`search=${b.number.toLowerCase()}`)).toEqual([b.id]);
			expect(await ids('search=INV-0000')).toHaveLength(3);
		});

		it('sorts by due_date either way', async () => {
			const { a, b, c } = await mixed();
			expect(await ids('sort=due_date')).toEqual([c.id, a.id, b.id]);
			expect(await ids('sort=-due_date')).toEqual([b.id, a.id, c.id]);
		});

		it.each(['contact_id=abc', 'due_before=31.01.2026', 'due_after=2026-02-30', 'sort=total'])('answers 400 for %s', async (query) => {
			expect((await sandbox.api.get(`/invoices?${query}`)).status).toBe(400);
		});
	});
});
