import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId, createWith, fromList, jsonOf, useErpHarness } from './setup';

// Every operation of the four resources against the sandbox: what it sent, what the ERP holds after, what it output.
// What version 1 outputs instead: versions.test.ts; Create or Update: keyed.test.ts; Map Automatically: autoMap.test.ts.

const h = useErpHarness();
const lines = async () => (await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`);
const idFromData = { __rl: true, mode: 'id', value: '={{ $json.id }}' };
const lineItems = (...line: IDataObject[]) => ({ line: (line.length ? line : [{}]).map((l) => ({ description: 'Consulting', quantity: 3, unitPrice: 120, ...l })) });

describe('refused before any request, naming what to fix', () => {
	it.each<[string, INodeParameters, IDataObject[] | undefined, string]>([
		['a phone', createWith('contact', { first_name: 'Ada', phone: '030 1234567' }), undefined, 'Field phone "030 1234567" is not in international format: start with + and the country code, e.g. +49 30 1234567'],
		['custom fields that are no object', createWith('contact', { first_name: 'Ada', custom_fields: '={{ $json.tier }}' }), [{ tier: 'gold' }], "Invalid input for 'custom_fields' [item 0]"],
		['a price that is no number', createWith('product', { sku: 'A1', name: 'A', unit_price: '={{ $json.price }}' }), [{ price: 'cheap' }], "Invalid input for 'unit_price' [item 0]"],
		['a salary that is no number', createWith('employee', { first_name: 'A', last_name: 'B', email: 'a@example.com', salary: '={{ "lots" }}' }), undefined, "Invalid input for 'salary' [item 0]"],
		['an ID that is text', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: 'abc' }], 'Contact ID "abc" is not a whole number: enter the numeric ID, e.g. 42'],
		['an ID below 1', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: '-4' }], 'Contact ID -4 must be greater than 0'],
		['an ID with a fraction', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: '12.5' }], 'Contact ID "12.5" is not a whole number: enter the numeric ID, e.g. 42'],
		['an ID too large', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: '99999999999999999999' }], 'Contact ID 99999999999999999999 is too large to be an ERP ID'],
		['an ID too large, as a number', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: 1e30 }], 'Contact ID 1000000000000000000000000000000 is too large to be an ERP ID'],
		['an ID that is an object', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: { id: 4 } }], 'Contact ID must be one ID, not an object: map a single field, e.g. {{ $json.id }}'],
		['an ID that is a list', { resource: 'contact', operation: 'get', contactId: idFromData }, [{ id: [4, 5] }], 'Contact ID must be one ID, not a list: map a single field, e.g. {{ $json.id }}'],
		['Extra Fields that are no JSON', { resource: 'contact', operation: 'update', contactId: byId(7), updateFields: { extraFields: '{first_name: Ada}' } }, undefined, 'Extra Fields (JSON) is not valid JSON'],
		['Extra Fields that are no object', { resource: 'contact', operation: 'update', contactId: byId(7), updateFields: { extraFields: '[1, 2]' } }, undefined, 'Extra Fields (JSON) must be a JSON object such as {"tags": ["vip"]}'],
		['an empty update', { resource: 'contact', operation: 'update', contactId: byId(7), updateFields: {} }, undefined, 'Update Fields is empty: add at least one field to change'],
		['a free-form page parameter', { resource: 'contact', operation: 'getAll', returnAll: true, filters: { queryParameters: { parameter: [{ name: 'page', value: '3' }] } } }, undefined, 'Query Parameters may not set "page": paging follows Return All and Limit'],
	])('%s', async (_what, parameters, input, message) => {
		const result = await h.run(parameters, { input });
		expect(result.error?.message.startsWith(message)).toBe(true);
		expect((result.error as { name?: string }).name).toBe('NodeOperationError');
		expect(await h.requests()).toEqual([]);
	});

	it('lets n8n stop a typed By ID value that is not a whole number, with the locator hint', async () => {
		await expect(h.run({ resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: 'abc' } })).rejects.toThrow(/Contact ID must be a whole number greater than 0, e\.g\. 42/);
		expect(await h.requests()).toEqual([]);
	});
});

describe("left to the ERP: required fields, allowed values, ranges, SKU characters (sent as they are: otherErps.test.ts, lenient-rules); its 422 names the field and nothing is stored", () => {
	const invoice = (contactId: unknown, extra: INodeParameters = {}) => ({ resource: 'invoice', operation: 'create', contactId: byId(contactId), ...extra });
	it.each<[string, () => Promise<INodeParameters>, RegExp]>([
		['a blank first name', async () => createWith('contact', { last_name: 'Lovelace', first_name: '  ' }), /^The ERP refused to create the contact \(422\): first_name: is required$/],
		['an invoice without lines', async () => invoice((await h.sandbox.admin.records('contacts'))[0].id), /^The ERP refused to create the invoice \(422\): lines: /],
		['a negative quantity', async () => invoice((await h.sandbox.admin.records('contacts'))[0].id, { lineItems: lineItems({ quantity: -1 }) }), /^The ERP refused to create the invoice \(422\): lines\[0\]\.quantity: /],
		['an unknown contact', async () => invoice(999, { lineItems: lineItems() }), /^The ERP refused to create the invoice \(422\): contact_id: /],
		['a negative threshold', async () => createWith('product', { sku: 'A1', name: 'A', low_stock_threshold: -2 }), /^The ERP refused to create the product \(422\): low_stock_threshold: /],
		['a missing last name and an unknown employment type', async () => createWith('employee', { first_name: 'A', email: 'a@example.com', employment_type: 'intern' }), /^The ERP refused to create the employee \(422\): (?=.*last_name: is required)(?=.*employment_type: )/],
	])('%s', async (_what, parameters, message) => {
		await h.sandbox.admin.seed({ contacts: 1 });
		await h.mark();
		const result = await h.run(await parameters());
		expect(result.error?.message).toMatch(message);
		expect((await h.requests()).map((r) => r.status)).toEqual([422]);
		expect([...(await h.sandbox.admin.records('invoices')), ...(await h.sandbox.admin.records('products')), ...(await h.sandbox.admin.records('employees'))]).toEqual([]);
	});

	it('a taken SKU', async () => {
		await h.run(createWith('product', { sku: 'DUP-1', name: 'First' }));
		expect((await h.run(createWith('product', { sku: 'DUP-1', name: 'Second' }))).error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});
});

describe('Contact', () => {
	it('creates a contact from the fields set below, custom fields included, a blank field left out: what was sent under the ERP\'s answer, in one request', async () => {
		const fields = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958', company: 'AE Ltd', notes: 'Met at the fair', custom_fields: { vat_number: 'GB123' } };
		const result = await h.run(createWith('contact', { ...fields, last_seen: '' }));
		const [created] = await h.sandbox.admin.records('contacts');
		const log = await h.requests();
		expect([log.map((r) => `${r.method} ${r.path} ${r.status}`), log[0].body]).toEqual([['POST /contacts 201'], fields]);
		// The document's create answer (id, first_name, created_at) over what was sent.
		expect(jsonOf(result)).toEqual([{ ...fields, id: created.id, created_at: created.created_at }]);
		expect(Object.keys(jsonOf(result)[0])[0]).toBe('id');
		expect(JSON.stringify(jsonOf(result))).not.toContain(h.sandbox.token);
	});

	it('sends no custom_fields while the field keeps the {} a fresh Create starts it with, and reads JSON text as the object', async () => {
		await h.run(createWith('contact', { first_name: 'Ada', custom_fields: '{}' }));
		await h.run(createWith('contact', { first_name: 'Ada', custom_fields: '{"tier": "gold"}' }));
		expect((await h.requests()).map((r) => r.body)).toEqual([{ first_name: 'Ada' }, { first_name: 'Ada', custom_fields: { tier: 'gold' } }]);
	});

	it('fetches the full record after create when asked; when that read fails, keeps the create (a re-run would create it twice)', async () => {
		const parameters = createWith('contact', { first_name: 'Grace', email: 'grace@example.com' }, { options: { fetchFullRecord: true } });
		expect(jsonOf(await h.run(parameters))).toEqual(await h.sandbox.admin.records('contacts'));
		await h.sandbox.admin.reset();
		await h.mark();
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 403 } });
		const result = await h.run(parameters);
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual([
			{ id: stored.id, first_name: 'Grace', email: 'grace@example.com', created_at: stored.created_at, fullRecordError: expect.stringMatching(/^Created, but reading the full contact failed: .*403/) },
		]);
		expect(await lines()).toEqual(['POST /contacts 201', `GET /contacts/${stored.id} 403`]);
	});

	it('gets a contact by ID and from the list mode (an unknown one: tool.test.ts, an unknown ID)', async () => {
		await h.sandbox.admin.seed({ contacts: 3 });
		const contacts = await h.sandbox.admin.records('contacts');
		for (const locator of [byId(contacts[1].id), fromList(contacts[2].id)]) {
			expect(jsonOf(await h.run({ resource: 'contact', operation: 'get', contactId: locator }))).toEqual([contacts.find((c) => String(c.id) === locator.value)]);
		}
	});

	it('updates the fields given and sends the rest of the contact as it was, so no ERP can lose a field', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [before] = await h.sandbox.admin.records('contacts');
		await h.mark();
		const result = await h.run({
			resource: 'contact',
			operation: 'update',
			contactId: byId(before.id),
			updateFields: { company: 'Initech', customFields: { field: [{ name: 'tier', value: 'gold' }] }, extraFields: '{"notes": "from JSON", "company": "overridden by the field"}' },
		});
		const [after] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([after]);
		const log = await h.requests();
		expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /contacts/${before.id}`, `PUT /contacts/${before.id}`]);
		const { id, created_at, updated_at, ...unchanged } = before;
		expect([id, created_at, updated_at].every((value) => value !== undefined)).toBe(true);
		expect(log[1].body).toEqual({ ...unchanged, company: 'Initech', notes: 'from JSON', custom_fields: { ...(before.custom_fields as object), tier: 'gold' } });
	});

	it("deletes a contact and outputs n8n's confirmation {deleted: true, id} (other answers: otherErps.test.ts, delete-204 and soft-delete)", async () => {
		await h.sandbox.admin.seed({ contacts: 2 });
		const [first, second] = await h.sandbox.admin.records('contacts');
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) });
		expect([jsonOf(result), Object.keys(jsonOf(result)[0])]).toEqual([[{ deleted: true, id: first.id }], ['deleted', 'id']]);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.id)).toEqual([second.id]);
	});

	it('Return All reads every page, each contact once; as one item when asked', async () => {
		await h.sandbox.admin.seed({ contacts: 250 });
		const stored = await h.sandbox.admin.records('contacts');
		await h.mark();
		expect(jsonOf(await h.run({ resource: 'contact', operation: 'getAll', returnAll: true }))).toEqual(stored);
		expect((await h.requests()).map((r) => r.query.page)).toEqual(['1', '2', '3']);
		expect(jsonOf(await h.run({ resource: 'contact', operation: 'getAll', returnAll: true, options: { returnAsOneItem: true } }))).toEqual([{ records: stored, count: 250 }]);
	});

	it('sends Limit as per_page and filters as query parameters', async () => {
		await h.sandbox.admin.seed({ contacts: 60 });
		await h.mark();
		const filters = { company: 'X Corp', createdAfter: '2020-01-01T00:00:00.000Z', queryParameters: { parameter: [{ name: 'sort', value: '-created_at' }] } };
		expect((await h.run({ resource: 'contact', operation: 'getAll', returnAll: false, limit: 5, filters })).error).toBeUndefined();
		expect((await h.requests()).map((r) => r.query)).toEqual([{ company: 'X Corp', created_after: '2020-01-01T00:00:00.000Z', sort: '-created_at', page: '1', per_page: '5' }]);
	});
});

describe('Invoice', () => {
	beforeEach(() => h.sandbox.admin.seed({ contacts: 3 }));
	const firstContact = async () => (await h.sandbox.admin.records('contacts'))[0];

	it('creates an invoice from line items (the ERP computes the totals), or from the lines in Extra Fields (JSON)', async () => {
		const contact = await firstContact();
		// Due a year after today's UTC date (the sandbox's issue date), on whatever day and in whatever zone.
		const due = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: lineItems({ taxRate: 19 }, { description: 'Travel', quantity: 1, unitPrice: 80.5, taxRate: 0 }),
			additionalFields: { currency: 'USD', dueDate: `${due}T00:00:00`, notes: 'Thanks' },
		});
		const [invoice] = await h.sandbox.admin.records('invoices');
		expect(jsonOf(result)).toEqual([invoice]);
		expect(invoice).toMatchObject({ contact_id: contact.id, due_date: due, status: 'draft' });
		const lines = [
			{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 19 },
			{ description: 'Travel', quantity: 1, unit_price: 80.5, tax_rate: 0 },
		];
		const extra = { resource: 'invoice', operation: 'create', contactId: byId(contact.id), additionalFields: { extraFields: { lines: [lines[1]] } } };
		expect((await h.run(extra)).error).toBeUndefined();
		expect((await h.requests()).map((r) => r.body)).toEqual([{ contact_id: contact.id, currency: 'USD', due_date: due, notes: 'Thanks', lines }, { contact_id: contact.id, lines: [lines[1]] }]);
	});

	it('sends an invoice and marks it paid; a second mark-paid is refused with the reason', async () => {
		const contact = await firstContact();
		await h.run({ resource: 'invoice', operation: 'create', contactId: byId(contact.id), lineItems: lineItems() });
		const [draft] = await h.sandbox.admin.records('invoices');
		const sent = await h.run({ resource: 'invoice', operation: 'send', invoiceId: byId(draft.id), additionalFields: { email: 'billing@example.com' } });
		expect(jsonOf(sent)[0]).toMatchObject({ id: draft.id, status: 'sent' });
		const paid = await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(draft.id), additionalFields: { paymentMethod: 'card', reference: 'TX-1' } });
		const [stored] = await h.sandbox.admin.records('invoices');
		expect(stored).toMatchObject({ status: 'paid', amount_due: 0, payment_method: 'card', payment_reference: 'TX-1' });
		expect(jsonOf(paid)).toEqual([stored]);
		expect((await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(draft.id) })).error?.message).toMatch(/^The ERP refused to mark invoice \d+ as paid \(422\): /);
	});

	it('gets one invoice and lists invoices by status', async () => {
		await h.sandbox.admin.seed({ invoices: 40 });
		const invoices = await h.sandbox.admin.records('invoices');
		expect(jsonOf(await h.run({ resource: 'invoice', operation: 'get', invoiceId: byId(invoices[5].id) }))).toEqual([invoices[5]]);
		const paid = invoices.filter((i) => i.status === 'paid');
		expect(paid.length).toBeGreaterThan(0);
		expect(jsonOf(await h.run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { status: 'paid' } }))).toEqual(paid);
	});
});

describe('Product', () => {
	it('creates, gets and updates a product: the update sends the product as read with the field changed, never its stock total', async () => {
		const created = await h.run(createWith('product', { sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false }));
		const [product] = await h.sandbox.admin.records('products');
		expect(product).toMatchObject({ sku: 'CHAIR-OAK-01', unit_price: 149.9, low_stock_threshold: 5, active: false });
		expect(jsonOf(created)).toEqual([product]);
		expect(jsonOf(await h.run({ resource: 'product', operation: 'get', productId: byId(product.id) }))).toEqual([product]);
		await h.mark();
		const updated = await h.run({ resource: 'product', operation: 'update', productId: byId(product.id), updateFields: { unitPrice: 12.5 } });
		const [stored] = await h.sandbox.admin.records('products');
		expect(jsonOf(updated)).toEqual([{ ...product, unit_price: 12.5, updated_at: stored.updated_at }]);
		const { id, created_at, updated_at, stock_total, ...rest } = product;
		expect([id, created_at, updated_at, stock_total].every((value) => value !== undefined)).toBe(true);
		const [read, put] = await h.requests();
		expect([read.method, put.method, put.body]).toEqual(['GET', 'PUT', { ...rest, unit_price: 12.5 }]);
	});

	it('filters by active and low stock in three states each: only yes, only no, or no filter', async () => {
		await h.sandbox.admin.seed({ products: 40 });
		await h.run({ resource: 'product', operation: 'update', productId: byId((await h.sandbox.admin.records('products'))[0].id), updateFields: { active: false } });
		const all = await h.sandbox.admin.records('products');
		const ids = async (filters: Record<string, string>) => jsonOf(await h.run({ resource: 'product', operation: 'getAll', returnAll: true, filters })).map((p) => p.id);
		const isLow = (p: (typeof all)[number]) => (p.stock_total as number) < (p.low_stock_threshold as number);
		expect([all.some(isLow), all.some((p) => !p.active)]).toEqual([true, true]);
		for (const [filter, has] of [['lowStock', isLow], ['active', (p: (typeof all)[number]) => p.active === true]] as const) {
			expect(await ids({ [filter]: 'true' })).toEqual(all.filter(has).map((p) => p.id));
			expect(await ids({ [filter]: 'false' })).toEqual(all.filter((p) => !has(p)).map((p) => p.id));
			expect(await ids({ [filter]: '' })).toEqual(all.map((p) => p.id));
		}
	});

	it('returns the stock of a product, one item per warehouse', async () => {
		await h.sandbox.admin.seed({ products: 2 });
		const [product] = await h.sandbox.admin.records('products');
		await h.sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 17, reserved: 4 });
		const expected = (await h.sandbox.admin.records('stock')).filter((row) => row.product_id === product.id);
		const result = jsonOf(await h.run({ resource: 'product', operation: 'getStock', productId: byId(product.id) }));
		expect(result.map((row) => row.warehouse_id)).toEqual(expected.map((row) => row.warehouse_id));
		expect(result.find((row) => row.warehouse_id === 2)).toMatchObject({ quantity: 17, reserved: 4, available: 13 });
	});
});

describe('Employee', () => {
	it('adds an employee (and the ERP emits employee.hired)', async () => {
		const result = await h.run(createWith('employee', { first_name: 'Linus', last_name: 'Torvalds', email: 'linus@example.com', department: 'Engineering', employment_type: 'part_time', salary: 90000, hire_date: '2026-11-01T00:00:00' }));
		const [employee] = await h.sandbox.admin.records('employees');
		expect(employee).toMatchObject({ department: 'Engineering', employment_type: 'part_time', salary: 90000, hire_date: '2026-11-01' });
		expect(jsonOf(result)).toEqual([employee]);
		expect((await h.sandbox.admin.events()).map((e) => e.event)).toContain('employee.hired');
	});

	it('gets, lists and returns the payroll history one item per pay run', async () => {
		await h.sandbox.admin.seed({ employees: 8 });
		const employees = await h.sandbox.admin.records('employees');
		const payroll = await h.sandbox.admin.records('payroll');
		const withPay = employees.find((e) => payroll.some((p) => p.employee_id === e.id));
		expect(jsonOf(await h.run({ resource: 'employee', operation: 'get', employeeId: byId(withPay?.id) }))).toEqual([withPay]);
		expect(jsonOf(await h.run({ resource: 'employee', operation: 'getAll', returnAll: false, limit: 3 }))).toEqual(employees.slice(0, 3));
		const history = jsonOf(await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: true }));
		const expectedIds = payroll.filter((p) => p.employee_id === withPay?.id).map((p) => p.id).sort();
		expect(history.map((p) => p.id).sort()).toEqual(expectedIds);
		expect(jsonOf(await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: false, limit: 2 }))).toHaveLength(Math.min(2, expectedIds.length));
	});
});
