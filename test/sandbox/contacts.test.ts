import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createInvoice, ISO_MS } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

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

	it('answers 404 for an unknown id', async () => {
		const response = await sandbox.api.put('/contacts/12345', { first_name: 'X' });
		expect(response.status).toBe(404);
		expect(response.data.error.code).toBe('not_found');
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
