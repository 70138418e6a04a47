import axios, { type AxiosResponse } from 'axios';

import type { Contact, Product } from '../../sandbox/types';
import { useTestSandbox, type VariantName, waitFor } from '../../tooling/harness/sandbox';
import { createContact, createProduct, ISO_MS, createInvoice, PRODUCT_DEFAULTS } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

const sandbox = useTestSandbox();
const receiver = useReceiver();

/** The three failures every format is tried on: a validation failure, an unknown record, a missing token. */
async function failures(): Promise<{ invalid: AxiosResponse; missing: AxiosResponse; anonymous: AxiosResponse }> {
	const invalid = await sandbox.api.post('/contacts', { email: 'not-an-address' }, { responseType: 'text' });
	const missing = await sandbox.api.get('/contacts/999', { responseType: 'text' });
	const anonymous = await axios.get(`${sandbox.baseUrl}/contacts`, { validateStatus: () => true, responseType: 'text' });
	return { invalid, missing, anonymous };
}

const json = (response: AxiosResponse): unknown => JSON.parse(response.data as string);

async function withVariant(name: VariantName) {
	await sandbox.admin.setVariants([name]);
	return failures();
}

describe('error formats', () => {
	it('success-false-200: a validation failure is answered 200 with success false; other failures keep their status', async () => {
		const { invalid, missing, anonymous } = await withVariant('success-false-200');
		expect(invalid.status).toBe(200);
		expect(json(invalid)).toEqual({
			success: false,
			error: {
				code: 'validation_failed',
				message: expect.stringContaining('first_name'),
				fields: { first_name: ['is required'], email: [expect.stringContaining('e-mail')] },
			},
		});
		expect(missing.status).toBe(404);
		expect(json(missing)).toEqual({ success: false, error: { code: 'not_found', message: 'Contact 999 not found' } });
		expect(anonymous.status).toBe(401);
		expect(await sandbox.admin.records('contacts')).toEqual([]);
	});

	it('problem-json: RFC 7807 bodies with their own content type', async () => {
		const { invalid, missing, anonymous } = await withVariant('problem-json');
		expect(invalid.status).toBe(422);
		expect(invalid.headers['content-type']).toMatch(/^application\/problem\+json/);
		expect(json(invalid)).toEqual({
			type: 'about:blank',
			title: 'Unprocessable Entity',
			status: 422,
			detail: expect.stringContaining('first_name is required'),
			errors: [
				{ field: 'first_name', message: 'is required' },
				{ field: 'email', message: expect.stringContaining('e-mail') },
			],
		});
		expect(json(missing)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Contact 999 not found' });
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers['www-authenticate']).toBe('Bearer');
		expect(json(anonymous)).toMatchObject({ status: 401, title: 'Unauthorized' });
	});

	it('errors-array: {message, errors: [{field, message}]}', async () => {
		const { invalid, missing } = await withVariant('errors-array');
		expect(invalid.status).toBe(422);
		expect(json(invalid)).toEqual({
			message: expect.stringContaining('first_name is required'),
			errors: [
				{ field: 'first_name', message: 'is required' },
				{ field: 'email', message: expect.stringContaining('e-mail') },
			],
		});
		expect(json(missing)).toEqual({ message: 'Contact 999 not found', errors: [] });
	});

	it('errors-object: {message, errors: {field: [...]}} on validation failures, {message} otherwise', async () => {
		const { invalid, missing } = await withVariant('errors-object');
		expect(json(invalid)).toEqual({
			message: expect.stringContaining('first_name is required'),
			errors: { first_name: ['is required'], email: [expect.stringContaining('e-mail')] },
		});
		expect(json(missing)).toEqual({ message: 'Contact 999 not found' });
	});

	it('plain-text-errors: text/plain sentences', async () => {
		const { invalid, missing, anonymous } = await withVariant('plain-text-errors');
		expect(invalid.status).toBe(422);
		expect(invalid.headers['content-type']).toMatch(/^text\/plain/);
		expect(invalid.data).toMatch(/^Validation failed: first_name is required; email must be/);
		expect(missing.data).toBe('Contact 999 not found');
		expect(anonymous.data).toBe('Missing header Authorization: Bearer <token>');
	});

	it('a queued fault with the JSON error body speaks the format too', async () => {
		await sandbox.admin.setVariants(['problem-json']);
		await sandbox.admin.queueFault({ fault: { kind: 'status', status: 503 } });
		const response = await sandbox.api.get('/contacts');
		expect(response.status).toBe(503);
		expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
		expect(response.data).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: expect.any(String) });
	});

	it('the app rate limit answers in the format', async () => {
		await sandbox.admin.setVariants(['errors-object']);
		await sandbox.admin.setFaults({ rateLimit: { limit: 1, windowMs: 60_000 } });
		expect((await sandbox.api.get('/contacts')).status).toBe(200);
		const refused = await sandbox.api.get('/contacts');
		expect(refused.status).toBe(429);
		expect(refused.data).toEqual({ message: expect.stringMatching(/^Rate limit exceeded: retry after \d+ s$/) });
	});
});

const employee = (fields: object = {}) => ({ first_name: 'Lukas', last_name: 'Weber', email: 'lukas@example.com', ...fields });

describe('lenient-rules', () => {
	beforeEach(() => sandbox.admin.setVariants(['lenient-rules']));

	it.each([
		['a slash and a space', 'PAL/2024 A'],
		['umlauts', 'Größe-XL'],
		['unicode and spaces', 'ünï cødé 42'],
		['255 characters', 'x'.repeat(255)],
	])('stores a SKU with %s as sent', async (_label, sku) => {
		const response = await sandbox.api.post('/products', { sku, name: 'Pallet' });
		expect(response.status).toBe(201);
		expect(response.data.data.sku).toBe(sku);
		expect((await sandbox.api.get('/products', { params: { sku } })).data.data.map((p: { sku: string }) => p.sku)).toEqual([sku]);
	});

	it('still refuses a SKU over 255 characters, and one that is missing', async () => {
		const response = await sandbox.api.post('/products', { sku: 'x'.repeat(256), name: 'Too long' });
		expect(response.data.error.fields).toEqual({ sku: ['must be at most 255 characters'] });
		expect((await sandbox.api.post('/products', { name: 'No SKU' })).data.error.fields).toEqual({ sku: ['is required'] });
	});

	it('takes names up to 1,000 characters, other currency codes, and prices with more decimals', async () => {
		const name = 'N'.repeat(1000);
		const contact = await sandbox.api.post('/contacts', { first_name: name, last_name: name, company: name });
		expect(contact.status).toBe(201);
		expect((await sandbox.admin.record('contacts', contact.data.data.id))?.last_name).toBe(name);
		expect((await sandbox.api.post('/contacts', { first_name: 'N'.repeat(1001) })).status).toBe(422);
		const product = await sandbox.api.post('/products', { sku: 'P-1', name, currency: 'usdt', unit_price: 0.1234 });
		expect(product.status).toBe(201);
		expect(product.data.data).toMatchObject({ currency: 'usdt', unit_price: 0.1234 });
	});

	it('stores employment types, salaries of 0 and phones with extensions beyond ours', async () => {
		const response = await sandbox.api.post('/employees', employee({ employment_type: 'intern', salary: 0, currency: 'XBT', phone: '+1 (555) 010-9999 ext. 12' }));
		expect(response.status).toBe(201);
		expect(response.data.data).toMatchObject({ employment_type: 'intern', salary: 0, currency: 'XBT', phone: '+1 (555) 010-9999 ext. 12' });
		expect((await sandbox.api.get('/employees?employment_type=intern')).data.meta.total).toBe(1);
	});

	it('keeps what the API document says: a phone needs its leading +, an e-mail its shape, required fields', async () => {
		const response = await sandbox.api.post('/employees', { first_name: 'Lukas', email: 'lukas.example.com', phone: '0049 30 1234567' });
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields).sort()).toEqual(['email', 'last_name', 'phone']);
	});

	it('stores invoice states, payment methods and quantities beyond ours', async () => {
		const contact = await createContact(sandbox.api);
		const created = await sandbox.api.post('/invoices', {
			contact_id: contact.id,
			status: 'pending',
			currency: 'usd',
			lines: [{ description: 'Cable', quantity: 2.125, unit_price: 3.999 }],
		});
		expect(created.status).toBe(201);
		expect(created.data.data).toMatchObject({ status: 'pending', currency: 'usd', lines: [{ quantity: 2.125, unit_price: 3.999 }], total: 8.5 });
		expect((await sandbox.api.get('/invoices?status=pending')).data.data.map((i: { id: number }) => i.id)).toEqual([created.data.data.id]);
		const paid = await sandbox.api.post(`/invoices/${created.data.data.id}/mark-paid`, { payment_method: 'paypal' });
		expect(paid.status).toBe(200);
		expect(paid.data.data).toMatchObject({ status: 'paid', payment_method: 'paypal', amount_due: 0 });
	});
});

describe('tight-rules', () => {
	beforeEach(() => sandbox.admin.setVariants(['tight-rules']));

	it('refuses a first name over 20 characters with a field message', async () => {
		expect((await sandbox.api.post('/contacts', { first_name: 'A'.repeat(20) })).status).toBe(201);
		const response = await sandbox.api.post('/contacts', { first_name: 'Maximiliane-Alexandra' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ first_name: ['must be at most 20 characters'] });
	});

	it('on updates too, and on products, employees and invoice lines', async () => {
		const contact = await createContact(sandbox.api);
		expect((await sandbox.api.put(`/contacts/${contact.id}`, { company: 'C'.repeat(41) })).data.error.fields).toEqual({
			company: ['must be at most 40 characters'],
		});
		expect((await sandbox.api.post('/products', { sku: 'SKU-0000000000017', name: 'Chair' })).data.error.fields).toEqual({
			sku: ['must be at most 16 characters'],
		});
		expect((await sandbox.api.post('/employees', employee({ department: 'D'.repeat(41) }))).data.error.fields).toEqual({
			department: ['must be at most 40 characters'],
		});
		const invoice = await sandbox.api.post('/invoices', { contact_id: contact.id, lines: [{ description: 'L'.repeat(101), unit_price: 1 }] });
		expect(invoice.data.error.fields).toEqual({ 'lines[0].description': ['must be at most 100 characters'] });
	});
});

const OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

describe('offset-timestamps', () => {
	it('writes record timestamps without millis and with +00:00, the same instants to the second', async () => {
		const stored = await createContact(sandbox.api);
		await sandbox.admin.setVariants(['offset-timestamps']);
		const got = (await sandbox.api.get(`/contacts/${stored.id}`)).data.data;
		expect(got.created_at).toMatch(OFFSET);
		expect(got.updated_at).toMatch(OFFSET);
		expect(Date.parse(got.created_at)).toBe(Math.floor(Date.parse(stored.created_at) / 1000) * 1000);
		expect((await sandbox.api.get('/contacts')).data.data[0].created_at).toBe(got.created_at);
		const created = (await sandbox.api.post('/contacts', { first_name: 'Ben' })).data.data;
		expect(created.created_at).toMatch(OFFSET);
	});

	it('in nested rows too (stock), and the filters take the offset form back', async () => {
		const product = await createProduct(sandbox.api);
		await sandbox.admin.setVariants(['offset-timestamps']);
		const [row] = (await sandbox.api.get(`/products/${product.id}/stock`)).data.data;
		expect(row.updated_at).toMatch(OFFSET);
		const contact = (await sandbox.api.get(`/contacts/${(await createContact(sandbox.api)).id}`)).data.data;
		const before = new Date(Date.parse(contact.created_at) + 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
		expect((await sandbox.api.get('/contacts', { params: { created_before: before } })).data.meta.total).toBe(1);
	});
});

describe('webhook timestamp forms', () => {
	beforeEach(() => sandbox.admin.addWebhook({ url: receiver.url }));

	/** Emits contact.created under the variant and returns the delivered body and the event's true time. */
	async function delivered(variant: VariantName | null): Promise<{ body: Record<string, unknown>; at: string }> {
		await sandbox.admin.setVariants(variant ? [variant] : []);
		const emitted = await sandbox.admin.emit('contact.created');
		await waitFor(() => receiver.received.length >= 1);
		return { body: JSON.parse(receiver.received[0].raw), at: emitted.timestamp };
	}

	it('default: ISO 8601 UTC with milliseconds, the instant of the event', async () => {
		const { body, at } = await delivered(null);
		expect(body.timestamp).toMatch(ISO_MS);
		expect(body.timestamp).toBe(at);
	});

	it.each([
		['webhook-timestamp-seconds', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
		['webhook-timestamp-offset', OFFSET],
		['webhook-timestamp-compact', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/],
		['webhook-timestamp-micros', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/],
	] as const)('%s: the same instant, in that form', async (variant, form) => {
		const { body, at } = await delivered(variant);
		const timestamp = body.timestamp as string;
		expect(timestamp).toMatch(form);
		expect(timestamp.slice(0, 19)).toBe(at.slice(0, 19));
		expect(Date.parse(timestamp)).toBe(Date.parse(`${at.slice(0, 19)}Z`) + (variant === 'webhook-timestamp-micros' ? Date.parse(at) % 1000 : 0));
	});

	it('webhook-timestamp-unparseable: a local date form, no ISO 8601', async () => {
		const { body, at } = await delivered('webhook-timestamp-unparseable');
		expect(body.timestamp).toBe(`${at.slice(8, 10)}.${at.slice(5, 7)}.${at.slice(0, 4)} um ${at.slice(11, 19)} Uhr`);
		expect(Number.isNaN(Date.parse(body.timestamp as string))).toBe(true);
	});

	it('webhook-timestamp-missing: event and data only', async () => {
		const { body } = await delivered('webhook-timestamp-missing');
		expect(Object.keys(body).sort()).toEqual(['data', 'event']);
	});
});

describe('future-events', () => {
	const emitRaw = (body: object) => axios.post(`${sandbox.url}/__sandbox/events`, body, { validateStatus: () => true });

	it('is needed for an event outside the six', async () => {
		const refused = await emitRaw({ event: 'invoice.created', data: { invoice_id: 1 } });
		expect(refused.status).toBe(422);
		expect(refused.data.error.fields.event[0]).toMatch(/future-events/);
	});

	it('delivers a new event name to subscriptions without an event filter only', async () => {
		await sandbox.admin.setVariants(['future-events']);
		const filtered = await startReceiver();
		try {
			await sandbox.admin.addWebhook({ url: filtered.url, events: ['contact.created'] });
			await sandbox.admin.addWebhook({ url: receiver.url });
			const emitted = await sandbox.admin.emit('invoice.created', { invoice_id: 7, number: 'INV-000007' });
			expect(emitted.deliveryIds).toHaveLength(1);
			await waitFor(() => receiver.received.length >= 1);
			expect(receiver.received[0].headers['x-erp-event']).toBe('invoice.created');
			expect(receiver.received[0].body).toEqual({ event: 'invoice.created', timestamp: expect.stringMatching(ISO_MS), data: { invoice_id: 7, number: 'INV-000007' } });
			expect(filtered.received).toEqual([]);
			expect((await sandbox.admin.events()).map((e) => e.event)).toEqual(['invoice.created']);
		} finally {
			await filtered.close();
		}
	});

	it('still refuses what cannot be an event name', async () => {
		await sandbox.admin.setVariants(['future-events']);
		expect((await emitRaw({ event: 'Invoice Created!' })).status).toBe(422);
		expect((await emitRaw({ event: 42 })).status).toBe(422);
		expect((await emitRaw({ event: 'invoice.created', data: 'x' })).status).toBe(422);
	});
});

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
