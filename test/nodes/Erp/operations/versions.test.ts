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

/** The body of the one request the ERP received with this method, since the test's last mark. */
async function sentBody(method: string): Promise<IDataObject> {
	const bodies = (await h.requests()).filter((r) => r.method === method).map((r) => r.body as IDataObject);
	expect(bodies).toHaveLength(1);
	return bodies[0];
}

afterEach(async () => await h.sandbox.admin.resetVariants());

describe('the ERP node\'s versions', () => {
	it('offers versions 1 and 1.1, and a new node gets 1.1', () => {
		const { version, defaultVersion } = new Erp().description;
		expect({ version, defaultVersion }).toEqual({ version: [1, 1.1], defaultVersion: 1.1 });
	});
});

describe('Contact › Create', () => {
	const create = createWith('contact', { first_name: 'Ada', email: 'ada@example.com', company: 'Initech' });

	it('version 1 outputs the ERP\'s answer as it came', async () => {
		const result = await h.run(create, V1);
		const [stored] = await h.sandbox.admin.records('contacts');
		// The document's create answer: id, first_name and created_at, nothing of what was sent besides.
		expect(jsonOf(result)).toEqual([{ id: stored.id, first_name: 'Ada', created_at: stored.created_at }]);
	});

	it('version 1.1 outputs what was sent, with the ERP\'s answer over it', async () => {
		await answerNext('POST', '/contacts', { id: 77, first_name: 'ADA', created_at: CREATED_AT });
		const result = await h.run(create, V1_1);
		expect(jsonOf(result)).toEqual([{ id: 77, first_name: 'ADA', created_at: CREATED_AT, email: 'ada@example.com', company: 'Initech' }]);
	});

	it('version 1 keeps the ERP\'s answer when reading the full record back fails', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 403 } });
		const result = await h.run({ ...create, options: { fetchFullRecord: true } }, V1);
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([
			{ id: stored.id, first_name: 'Ada', created_at: stored.created_at, fullRecordError: expect.stringMatching(/^Created, but reading the full contact failed/) },
		]);
	});

	it('the ERP Tool outputs as 1.1 even at version 1 (it came after 0.1.0)', async () => {
		await answerNext('POST', '/contacts', { id: 78, first_name: 'Ada', created_at: CREATED_AT });
		const result = await h.run(create, { ...V1, asTool: true });
		expect(jsonOf(result)).toEqual([{ id: 78, first_name: 'Ada', created_at: CREATED_AT, email: 'ada@example.com', company: 'Initech' }]);
	});
});

describe('Create or Update and Update: the ERP answers a PUT with part of the record', () => {
	const cases: Array<{ resource: 'contact' | 'product'; path: string; fields: IDataObject; key: string }> = [
		{ resource: 'contact', path: '/contacts', fields: { first_name: 'Ada', company: 'Initech' }, key: 'email' },
		{ resource: 'product', path: '/products', fields: { name: 'Widget, blue', unit_price: 9.5 }, key: 'sku' },
	];

	describe.each(cases)('$resource', ({ resource, path, fields, key }) => {
		/** A record the ERP already holds, with its key. */
		async function existing(): Promise<IDataObject> {
			await h.sandbox.admin.seed(resource === 'contact' ? { contacts: 5 } : { products: 1 });
			const records = (await h.sandbox.admin.records(resource === 'contact' ? 'contacts' : 'products')) as unknown as IDataObject[];
			await h.mark();
			return records.find((record) => record[key]) as IDataObject;
		}
		const upsert = (record: IDataObject): INodeParameters => createWith(resource, { ...fields, [key]: record[key] }, {}, 'upsert');
		const update = (record: IDataObject): INodeParameters => ({
			resource,
			operation: 'update',
			[`${resource}Id`]: byId(record.id),
			updateFields: resource === 'contact' ? { company: 'Initech' } : { unitPrice: 9.5 },
		});

		/** Runs an existing record's write at `version`, the ERP answering its PUT with only the ID and a time. */
		async function written(parameters: (record: IDataObject) => INodeParameters, version: typeof V1) {
			const record = await existing();
			await answerNext('PUT', `${path}/${String(record.id)}`, { id: record.id, updated_at: UPDATED_AT }, 200);
			return { record, items: jsonOf(await h.run(parameters(record), version)) };
		}
		const writes: Array<[string, (record: IDataObject) => INodeParameters, IDataObject]> = [
			['Create or Update', upsert, { action: 'updated' }],
			['Update', update, {}],
		];

		it.each(writes)('%s: version 1 outputs the ERP\'s answer as it came', async (_name, parameters, action) => {
			const { record, items } = await written(parameters, V1);
			expect(items).toEqual([{ id: record.id, updated_at: UPDATED_AT, ...action }]);
		});

		it.each(writes)('%s: version 1.1 outputs the record sent, with the ERP\'s answer over it', async (_name, parameters, action) => {
			const { record, items } = await written(parameters, V1_1);
			const sent = await sentBody('PUT');
			expect(sent).toMatchObject(resource === 'contact' ? { company: 'Initech', email: record.email } : { unit_price: 9.5, sku: record.sku });
			expect(items).toEqual([{ id: record.id, ...sent, updated_at: UPDATED_AT, ...action }]);
		});

		it('Create or Update, a new record: version 1 outputs the ERP\'s answer, 1.1 what was sent under it', async () => {
			const newKey = resource === 'contact' ? 'new@example.com' : 'NEW-1';
			const parameters = createWith(resource, { ...fields, [key]: newKey }, {}, 'upsert');
			await answerNext('POST', path, { id: 501, created_at: CREATED_AT });
			expect(jsonOf(await h.run(parameters, V1))).toEqual([{ id: 501, created_at: CREATED_AT, action: 'created' }]);

			await h.sandbox.admin.reset();
			await answerNext('POST', path, { id: 502, created_at: CREATED_AT });
			expect(jsonOf(await h.run(parameters, V1_1))).toEqual([{ id: 502, created_at: CREATED_AT, ...fields, [key]: newKey, action: 'created' }]);
		});
	});
});

describe('the other creates: the ERP answers with part of the record', () => {
	it.each([
		['Product › Create', createWith('product', { sku: 'W-1', name: 'Widget', unit_price: 9.5 }), '/products', { sku: 'W-1', name: 'Widget', unit_price: 9.5 }],
		[
			'Employee › Create',
			createWith('employee', { first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' }),
			'/employees',
			{ first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' },
		],
		[
			'Employee › Create or Get, a new employee',
			createWith('employee', { first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' }, {}, 'createIfNew'),
			'/employees',
			{ first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com' },
		],
	])('%s: version 1 outputs the ERP\'s answer, 1.1 what was sent under it', async (name, parameters, path, sent) => {
		const action = name.includes('or Get') ? { action: 'created' } : {};
		await answerNext('POST', path, { id: 601, created_at: CREATED_AT });
		expect(jsonOf(await h.run(parameters, V1))).toEqual([{ id: 601, created_at: CREATED_AT, ...action }]);

		await h.sandbox.admin.reset();
		await answerNext('POST', path, { id: 602, created_at: CREATED_AT });
		expect(jsonOf(await h.run(parameters, V1_1))).toEqual([{ id: 602, created_at: CREATED_AT, ...sent, ...action }]);
	});

	it('Invoice › Create: version 1 outputs the ERP\'s answer, 1.1 what was sent (its lines too) under it', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		const parameters = {
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Consulting', quantity: 3, unitPrice: 120 }] },
		};

		await answerNext('POST', '/invoices', { id: 701, number: 'INV-701' });
		expect(jsonOf(await h.run(parameters, V1))).toEqual([{ id: 701, number: 'INV-701' }]);

		await answerNext('POST', '/invoices', { id: 702, number: 'INV-702' });
		expect(jsonOf(await h.run(parameters, V1_1))).toEqual([{ id: 702, number: 'INV-702', contact_id: contact.id, lines: [{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 0 }] }]);
	});
});

describe('Contact › Delete, against an ERP that answers with the removed contact (soft-delete)', () => {
	async function removed(version: typeof V1) {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.setVariants(['soft-delete']);
		return { contact, items: jsonOf(await h.run({ resource: 'contact', operation: 'delete', contactId: byId(contact.id) }, version)) };
	}

	it('version 1 outputs the ERP\'s answer as it came', async () => {
		const { contact, items } = await removed(V1);
		expect(items).toEqual([{ ...contact, deleted_at: expect.any(String) }]);
	});

	it('version 1.1 outputs n8n\'s confirmation', async () => {
		const { contact, items } = await removed(V1_1);
		expect(items).toEqual([{ deleted: true, id: contact.id }]);
	});
});

describe('Get and Get Many: Simplify is version 1.1\'s', () => {
	it.each([
		['Get', (id: unknown) => ({ resource: 'contact', operation: 'get', contactId: byId(id), simplify: true }), (record: IDataObject) => record],
		['Get Many', () => ({ resource: 'contact', operation: 'getAll', returnAll: true, simplify: true }), (record: IDataObject) => [record]],
	])('%s: version 1 outputs the record as the ERP sends it even when a saved workflow holds simplify: true', async (_name, parameters, data) => {
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
});
