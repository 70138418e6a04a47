import axios from 'axios';

import type { Contact, Product } from '../../sandbox/types';
import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createInvoice, createProduct, ISO_MS, PRODUCT_DEFAULTS } from './fixtures';

const sandbox = useTestSandbox();

describe('replace-put', () => {
	let contact: Contact;

	beforeEach(async () => {
		contact = await createContact(sandbox.api, { notes: 'VIP', custom_fields: { tier: 'gold', region: 'north' } });
		await sandbox.admin.setVariants(['replace-put']);
	});

	it('clears every contact field absent from the body and replaces custom_fields as a whole', async () => {
		const response = await sandbox.api.put(`/contacts/${contact.id}`, { first_name: 'Anna', email: 'anna@new.example', custom_fields: { tier: 'silver' } });
		expect(response.status).toBe(200);
		const expected = {
			...contact,
			first_name: 'Anna',
			last_name: null,
			email: 'anna@new.example',
			phone: null,
			company: null,
			notes: null,
			custom_fields: { tier: 'silver' },
			updated_at: expect.stringMatching(ISO_MS),
		};
		expect(response.data.data).toEqual(expected);
		expect(await sandbox.admin.record('contacts', contact.id)).toEqual(expected);
		const [updated] = (await sandbox.admin.events()).filter((e) => e.event === 'contact.updated');
		expect((updated.data as { changed_fields: string[] }).changed_fields.sort()).toEqual(['company', 'custom_fields', 'email', 'last_name', 'notes', 'phone']);
	});

	it('refuses a body without a required field, naming it, and changes nothing', async () => {
		const response = await sandbox.api.put(`/contacts/${contact.id}`, { email: 'only@example.com' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ first_name: ['is required'] });
		expect(await sandbox.admin.record('contacts', contact.id)).toEqual(contact);
	});

	it('ignores assigned fields in the body', async () => {
		const response = await sandbox.api.put(`/contacts/${contact.id}`, {
			...contact,
			id: 999,
			created_at: '2000-01-01T00:00:00.000Z',
			updated_at: '2000-01-01T00:00:00.000Z',
			first_name: 'Anke',
		});
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({ ...contact, first_name: 'Anke', updated_at: expect.stringMatching(ISO_MS) });
		expect(response.data.data.updated_at).not.toBe('2000-01-01T00:00:00.000Z');
	});

	it('gives a product absent fields their defaults, ignores stock_total, and still checks the SKU', async () => {
		const product: Product = await createProduct(sandbox.api, {
			description: 'Mesh back',
			unit_price: 249.5,
			currency: 'USD',
			unit: 'box',
			low_stock_threshold: 0,
			active: false,
			custom_fields: { colour: 'black' },
		});
		const response = await sandbox.api.put(`/products/${product.id}`, { sku: product.sku, name: 'Chair v2', stock_total: 999 });
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({ ...product, ...PRODUCT_DEFAULTS, name: 'Chair v2', stock_total: 0, updated_at: expect.stringMatching(ISO_MS) });
		const missing = await sandbox.api.put(`/products/${product.id}`, { name: 'No SKU' });
		expect(missing.data.error.fields).toEqual({ sku: ['is required'] });
		const other = await createProduct(sandbox.api, { sku: 'DESK-1', name: 'Desk' });
		const taken = await sandbox.api.put(`/products/${product.id}`, { sku: other.sku, name: 'Clash', unit: 'x'.repeat(21) });
		expect(taken.status).toBe(422);
		expect(Object.keys(taken.data.error.fields).sort()).toEqual(['sku', 'unit']);
	});
});

describe('bare-create', () => {
	beforeEach(() => sandbox.admin.setVariants(['bare-create']));

	it.each([
		['/contacts', () => ({ first_name: 'Anna' }), 'first_name'],
		['/products', () => ({ sku: 'CHAIR-1', name: 'Chair' }), 'sku'],
		['/employees', () => ({ first_name: 'Lukas', last_name: 'Weber', email: 'lukas@example.com' }), 'email'],
	])('POST %s answers 201 {success: true} and a Location that names the new record', async (path, body, field) => {
		const response = await sandbox.api.post(path, body());
		expect(response.status).toBe(201);
		expect(response.data).toEqual({ success: true });
		const location = response.headers.location as string;
		expect(location).toMatch(new RegExp(`^/api/v1${path}/\\d+$`));
		const record = await sandbox.api.get(location.slice('/api/v1'.length));
		expect(record.status).toBe(200);
		expect(record.data.data[field]).toBe((body() as Record<string, string>)[field]);
	});

	it('POST /invoices too; a failed create is still a 422 with its error', async () => {
		await sandbox.admin.setVariants([]);
		const contact = await createContact(sandbox.api);
		await sandbox.admin.setVariants(['bare-create']);
		const response = await sandbox.api.post('/invoices', { contact_id: contact.id, lines: [{ description: 'Work', unit_price: 10 }] });
		expect(response.data).toEqual({ success: true });
		expect((await sandbox.api.get((response.headers.location as string).slice('/api/v1'.length))).data.data.total).toBe(10);
		const failed = await sandbox.api.post('/invoices', { contact_id: contact.id });
		expect(failed.status).toBe(422);
		expect(failed.data.error.fields).toEqual({ lines: ['is required'] });
	});
});

describe('created-200', () => {
	beforeEach(() => sandbox.admin.setVariants(['created-200']));

	it('answers creates 200 with the usual data', async () => {
		const contact = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect(contact.status).toBe(200);
		expect(contact.data.data).toEqual({ id: 1, first_name: 'Anna', created_at: expect.stringMatching(ISO_MS) });
		const product = await sandbox.api.post('/products', { sku: 'A-1', name: 'A' });
		expect(product.status).toBe(200);
		expect(product.data.data).toMatchObject({ id: 1, sku: 'A-1', stock_total: 0 });
	});

	it('combines with bare-create: 200 {success: true} and a Location', async () => {
		await sandbox.admin.setVariants(['created-200', 'bare-create']);
		const response = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		expect(response.status).toBe(200);
		expect(response.data).toEqual({ success: true });
		expect(response.headers.location).toBe('/api/v1/contacts/1');
	});
});

describe('delete-204', () => {
	it('answers 204 without a body; the contact is gone; refusals keep their status', async () => {
		const contact = await createContact(sandbox.api);
		const billed = await createContact(sandbox.api, { email: 'billed@example.com' });
		await createInvoice(sandbox.api, billed.id);
		await sandbox.admin.setVariants(['delete-204']);
		const response = await axios.delete(`${sandbox.baseUrl}/contacts/${contact.id}`, {
			headers: { Authorization: `Bearer ${sandbox.token}` },
			responseType: 'text',
		});
		expect(response.status).toBe(204);
		expect(response.data).toBe('');
		expect(response.headers['content-type']).toBeUndefined();
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).status).toBe(404);
		expect((await sandbox.api.delete(`/contacts/${contact.id}`)).status).toBe(404);
		expect((await sandbox.api.delete(`/contacts/${billed.id}`)).status).toBe(422);
	});
});

describe('soft-delete', () => {
	it('answers 200 with the whole record plus deleted_at; a later GET is 404 and lists leave it out', async () => {
		const contact = await createContact(sandbox.api);
		const kept = await createContact(sandbox.api, { first_name: 'Kept' });
		await sandbox.admin.setVariants(['soft-delete']);
		const before = Date.now();
		const response = await sandbox.api.delete(`/contacts/${contact.id}`);
		expect(response.status).toBe(200);
		expect(response.data).toEqual({ success: true, data: { ...contact, deleted_at: expect.stringMatching(ISO_MS) } });
		expect(Date.parse(response.data.data.deleted_at)).toBeGreaterThanOrEqual(before - 1000);
		expect((await sandbox.api.get(`/contacts/${contact.id}`)).status).toBe(404);
		expect((await sandbox.api.get('/contacts')).data.data.map((c: Contact) => c.id)).toEqual([kept.id]);
	});
});
