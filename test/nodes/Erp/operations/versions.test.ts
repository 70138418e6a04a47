import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { Erp } from '../../../../nodes/Erp/Erp.node';
import { useErpHarness, byId, createWith, jsonOf } from './setup';

// Version 1 is the ERP node as 0.1.0 released it: a workflow saved then keeps its outputs. Version 1.1 is what a
// new node gets. Each write below is answered by the ERP with part of the record (the document shows no answer for
// most), so that the two outputs differ: version 1 outputs that answer as it came, 1.1 what was sent under it.

const h = useErpHarness();
const V1 = { typeVersion: 1 };
const V1_1 = { typeVersion: 1.1 };
const CREATED_AT = '2026-11-01T00:00:00.000Z';
const UPDATED_AT = '2026-11-02T00:00:00.000Z';

/** The ERP does the next matching request, then answers it with `data` instead of its own answer. */
async function answerNext(method: string, path: string, data: IDataObject, status = 201) {
	await h.sandbox.admin.queueFault({ match: { method, path }, fault: { kind: 'status', status, body: { success: true, data }, afterCommit: true } });
}

afterEach(async () => await h.sandbox.admin.resetVariants());

it('offers versions 1 and 1.1, and a new node gets 1.1', () => {
	const { version, defaultVersion } = new Erp().description;
	expect({ version, defaultVersion }).toEqual({ version: [1, 1.1], defaultVersion: 1.1 });
});

describe('creates: the ERP answers with part of the record', () => {
	const linus = { first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' };
	it.each<[string, INodeParameters, string, IDataObject, IDataObject]>([
		['Contact › Create', createWith('contact', { first_name: 'Ada', email: 'ada@example.com', company: 'Initech' }), '/contacts', { first_name: 'Ada', email: 'ada@example.com', company: 'Initech' }, {}],
		['Contact › Create or Update, a new contact', createWith('contact', { first_name: 'Ada', email: 'new@example.com' }, {}, 'upsert'), '/contacts', { first_name: 'Ada', email: 'new@example.com' }, { action: 'created' }],
		['Product › Create', createWith('product', { sku: 'W-1', name: 'Widget', unit_price: 9.5 }), '/products', { sku: 'W-1', name: 'Widget', unit_price: 9.5 }, {}],
		['Product › Create or Update, a new product', createWith('product', { sku: 'NEW-1', name: 'Widget' }, {}, 'upsert'), '/products', { sku: 'NEW-1', name: 'Widget' }, { action: 'created' }],
		['Employee › Create', createWith('employee', linus), '/employees', linus, {}],
		['Employee › Create or Get, a new employee', createWith('employee', linus, {}, 'createIfNew'), '/employees', linus, { action: 'created' }],
	])("%s: version 1 outputs the ERP's answer, 1.1 what was sent under it", async (_name, parameters, path, sent, action) => {
		await answerNext('POST', path, { id: 601, created_at: CREATED_AT });
		expect(jsonOf(await h.run(parameters, V1))).toEqual([{ id: 601, created_at: CREATED_AT, ...action }]);
		await h.sandbox.admin.reset();
		await answerNext('POST', path, { id: 602, created_at: CREATED_AT });
		expect(jsonOf(await h.run(parameters, V1_1))).toEqual([{ id: 602, created_at: CREATED_AT, ...sent, ...action }]);
	});

	it('Contact › Create in the ERP Tool outputs as 1.1 even at version 1 (the tool came after 0.1.0)', async () => {
		await answerNext('POST', '/contacts', { id: 78, first_name: 'Ada', created_at: CREATED_AT });
		const create = createWith('contact', { first_name: 'Ada', email: 'ada@example.com' });
		expect(jsonOf(await h.run(create, { ...V1, asTool: true }))).toEqual([{ id: 78, first_name: 'Ada', created_at: CREATED_AT, email: 'ada@example.com' }]);
	});

	it("Invoice › Create: version 1 outputs the ERP's answer, 1.1 what was sent (its lines too) under it", async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		const parameters = { resource: 'invoice', operation: 'create', contactId: byId(contact.id), lineItems: { line: [{ description: 'Consulting', quantity: 3, unitPrice: 120 }] } };
		await answerNext('POST', '/invoices', { id: 701, number: 'INV-701' });
		expect(jsonOf(await h.run(parameters, V1))).toEqual([{ id: 701, number: 'INV-701' }]);
		await answerNext('POST', '/invoices', { id: 702, number: 'INV-702' });
		expect(jsonOf(await h.run(parameters, V1_1))).toEqual([{ id: 702, number: 'INV-702', contact_id: contact.id, lines: [{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 0 }] }]);
	});
});

describe.each([
	{ resource: 'contact' as const, path: '/contacts', fields: { first_name: 'Ada', company: 'Initech' }, key: 'email', change: { company: 'Initech' } },
	{ resource: 'product' as const, path: '/products', fields: { name: 'Widget, blue', unit_price: 9.5 }, key: 'sku', change: { unitPrice: 9.5 } },
])('$resource › Create or Update and Update of an existing record: the ERP answers the PUT with its ID and a time', ({ resource, path, fields, key, change }) => {
	const writes: Array<[string, (record: IDataObject) => INodeParameters, IDataObject]> = [
		['Create or Update', (record) => createWith(resource, { ...fields, [key]: record[key] }, {}, 'upsert'), { action: 'updated' }],
		['Update', (record) => ({ resource, operation: 'update', [`${resource}Id`]: byId(record.id), updateFields: change }), {}],
	];

	it.each(writes)("%s: version 1 outputs the ERP's answer as it came, 1.1 the record sent under it", async (_name, parameters, action) => {
		for (const version of [V1, V1_1]) {
			await h.sandbox.admin.reset();
			await h.sandbox.admin.seed(resource === 'contact' ? { contacts: 5 } : { products: 1 });
			const record = ((await h.sandbox.admin.records(resource === 'contact' ? 'contacts' : 'products')) as unknown as IDataObject[]).find((r) => r[key]) as IDataObject;
			await h.mark();
			await answerNext('PUT', `${path}/${String(record.id)}`, { id: record.id, updated_at: UPDATED_AT }, 200);
			const items = jsonOf(await h.run(parameters(record), version));
			const sent = (await h.requests()).filter((r) => r.method === 'PUT').map((r) => r.body as IDataObject);
			expect(sent).toHaveLength(1);
			expect(sent[0]).toMatchObject(resource === 'contact' ? { company: 'Initech', email: record.email } : { unit_price: 9.5, sku: record.sku });
			expect(items).toEqual([version === V1 ? { id: record.id, updated_at: UPDATED_AT, ...action } : { id: record.id, ...sent[0], updated_at: UPDATED_AT, ...action }]);
		}
	});
});

it("Contact › Delete against an ERP that answers with the removed contact (soft-delete): version 1 outputs that answer, 1.1 n8n's confirmation", async () => {
	await h.sandbox.admin.seed({ contacts: 2 });
	const [first, second] = await h.sandbox.admin.records('contacts');
	await h.sandbox.admin.setVariants(['soft-delete']);
	expect(jsonOf(await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) }, V1))).toEqual([{ ...first, deleted_at: expect.any(String) }]);
	expect(jsonOf(await h.run({ resource: 'contact', operation: 'delete', contactId: byId(second.id) }, V1_1))).toEqual([{ deleted: true, id: second.id }]);
});

it.each([
	['Get', (id: unknown) => ({ resource: 'contact', operation: 'get', contactId: byId(id), simplify: true }), (record: IDataObject) => record],
	['Get Many', () => ({ resource: 'contact', operation: 'getAll', returnAll: true, simplify: true }), (record: IDataObject) => [record]],
])("%s: Simplify is version 1.1's; version 1 outputs the record as the ERP sends it even when a saved workflow holds simplify: true", async (_name, parameters, data) => {
	await h.sandbox.admin.seed({ contacts: 1 });
	const [contact] = await h.sandbox.admin.records('contacts');
	const record = { ...contact, custom_fields: { vat_number: 'GB123' } };
	const answer = { kind: 'status' as const, status: 200, body: { success: true, data: data(record), meta: { page: 1, per_page: 100, total: 1 } } };
	await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: answer });
	expect(jsonOf(await h.run(parameters(contact.id), V1))).toEqual([record]);
	await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: answer });
	const [simplified] = jsonOf(await h.run(parameters(contact.id), V1_1));
	expect(simplified).toMatchObject({ id: contact.id, 'custom_fields.vat_number': 'GB123' });
	expect(simplified).not.toHaveProperty('custom_fields');
});
