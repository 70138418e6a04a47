import { byId, createWith, fromList, jsonOf, useErpHarness } from './setup';

const h = useErpHarness();

describe('Contact', () => {
	it('creates a contact from the fields set below, custom fields included', async () => {
		const result = await h.run(
			createWith('contact', {
				first_name: 'Ada',
				last_name: 'Lovelace',
				email: 'ada@example.com',
				phone: '+44 20 7946 0958',
				company: 'Analytical Engines Ltd',
				notes: 'Met at the fair',
				custom_fields: { vat_number: 'GB123' },
				last_seen: '',
			}),
		);
		expect(result.error).toBeUndefined();
		const [created] = await h.sandbox.admin.records('contacts');
		expect(created).toMatchObject({
			first_name: 'Ada',
			last_name: 'Lovelace',
			email: 'ada@example.com',
			phone: '+44 20 7946 0958',
			company: 'Analytical Engines Ltd',
			notes: 'Met at the fair',
			custom_fields: { vat_number: 'GB123' },
		});
		const log = await h.requests();
		expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /contacts 201']);
		expect(log[0].body).not.toHaveProperty('last_seen');
		// The document's create answer (id, first_name, created_at) over what was sent, with no second request.
		expect(jsonOf(result)).toEqual([{ ...(log[0].body as object), id: created.id, first_name: 'Ada', created_at: created.created_at }]);
		expect(Object.keys(jsonOf(result)[0])[0]).toBe('id');
		expect(JSON.stringify(jsonOf(result))).not.toContain(h.sandbox.token);
	});

	it('outputs the ERP\'s answer where it differs from what was sent', async () => {
		await h.sandbox.admin.queueFault({
			match: { method: 'POST', path: '/contacts' },
			fault: { kind: 'status', status: 201, body: { success: true, data: { id: 77, first_name: 'ADA', created_at: '2026-11-01T00:00:00Z' } }, afterCommit: true },
		});
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com', company: 'Initech' }));
		expect(jsonOf(result)).toEqual([{ id: 77, first_name: 'ADA', created_at: '2026-11-01T00:00:00Z', email: 'ada@example.com', company: 'Initech' }]);
	});

	const createGraceWithFullRecord = createWith('contact', { first_name: 'Grace', email: 'grace@example.com' }, { options: { fetchFullRecord: true } });

	it('fetches the full record after create when asked', async () => {
		const result = await h.run(createGraceWithFullRecord);
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([stored]);
		expect((await h.requests()).map((r) => r.method)).toEqual(['POST', 'GET']);
	});

	it('keeps the create when reading the full record back fails, so a re-run cannot create it twice', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 403 } });
		const result = await h.run(createGraceWithFullRecord);
		expect(result.error).toBeUndefined();
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([
			{
				id: stored.id,
				first_name: 'Grace',
				email: 'grace@example.com',
				created_at: stored.created_at,
				fullRecordError: expect.stringMatching(/^Created, but reading the full contact failed: .*403/),
			},
		]);
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'GET 403']);
	});

	it.each([
		[{ email: 'ada-at-example.com' }, 'Field email "ada-at-example.com" is not a valid e-mail address: use the form name@example.com'],
		[{ phone: '030 1234567' }, 'Field phone "030 1234567" is not in international format: start with + and the country code, e.g. +49 30 1234567'],
	])('refuses what the API document rules out, %j, before sending anything', async (override, message) => {
		const result = await h.run(createWith('contact', { first_name: 'Ada', ...override }));
		expect(result.error?.message).toEqual(message);
		expect((result.error as { name?: string }).name).toBe('NodeOperationError');
		expect(await h.requests()).toEqual([]);
	});

	it('sends no custom_fields when the field keeps the {} a fresh Create starts it with', async () => {
		const result = await h.run(createWith('contact', { first_name: 'Ada', custom_fields: '{}' }));
		expect(result.error).toBeUndefined();
		expect((await h.requests()).map((r) => r.body)).toEqual([{ first_name: 'Ada' }]);
	});

	it('lets n8n read custom_fields written as JSON text, and refuse text that is no object, naming the field', async () => {
		const parsed = await h.run(createWith('contact', { first_name: 'Ada', custom_fields: '{"tier": "gold"}' }));
		expect(parsed.error).toBeUndefined();
		expect((await h.sandbox.admin.records('contacts'))[0].custom_fields).toEqual({ tier: 'gold' });
		await h.mark();
		const refused = await h.run(createWith('contact', { first_name: 'Ada', custom_fields: '={{ $json.tier }}' }), { input: [{ tier: 'gold' }] });
		expect(refused.error?.message).toBe("Invalid input for 'custom_fields' [item 0]");
		expect(await h.requests()).toEqual([]);
	});

	it('leaves required fields to the ERP: its 422 names the missing field', async () => {
		const result = await h.run(createWith('contact', { last_name: 'Lovelace', first_name: '  ' }));
		expect(result.error?.message).toBe('The ERP refused to create the contact (422): first_name: is required');
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 422']);
	});

	it('gets a contact by ID and from the list mode', async () => {
		await h.sandbox.admin.seed({ contacts: 3 });
		const contacts = await h.sandbox.admin.records('contacts');
		await h.mark();
		for (const locator of [byId(contacts[1].id), fromList(contacts[2].id)]) {
			const result = await h.run({ resource: 'contact', operation: 'get', contactId: locator });
			expect(jsonOf(result)).toEqual([contacts.find((c) => String(c.id) === locator.value)]);
		}
	});

	it.each([
		['abc', 'Contact ID "abc" is not a whole number: enter the numeric ID, e.g. 42'],
		['-4', 'Contact ID -4 must be greater than 0'],
		['12.5', 'Contact ID "12.5" is not a whole number: enter the numeric ID, e.g. 42'],
		['99999999999999999999', 'Contact ID 99999999999999999999 is too large to be an ERP ID'],
		[1e30, 'Contact ID 1000000000000000000000000000000 is too large to be an ERP ID'],
		[{ id: 4 }, 'Contact ID must be one ID, not an object: map a single field, e.g. {{ $json.id }}'],
		[[4, 5], 'Contact ID must be one ID, not a list: map a single field, e.g. {{ $json.id }}'],
	])('refuses the ID %j coming from the data before sending anything', async (value, message) => {
		const result = await h.run(
			{ resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			{ input: [{ id: value }] },
		);
		expect(result.error?.message).toBe(message);
		expect(await h.requests()).toEqual([]);
	});

	it('lets n8n stop a typed By ID value that is not a whole number, with the locator hint', async () => {
		await expect(h.run({ resource: 'contact', operation: 'get', contactId: { __rl: true, mode: 'id', value: 'abc' } })).rejects.toThrow(
			/Contact ID must be a whole number greater than 0, e\.g\. 42/,
		);
		expect(await h.requests()).toEqual([]);
	});

	it('says which contact was not found', async () => {
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(4242) });
		expect(result.error?.message).toBe('Contact 4242 was not found (404)');
		expect((result.error as { name?: string }).name).toBe('NodeApiError');
	});

	it('updates the fields given and sends the rest of the contact as it was, so no ERP can lose a field', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [before] = await h.sandbox.admin.records('contacts');
		await h.mark();
		const result = await h.run({
			resource: 'contact',
			operation: 'update',
			contactId: byId(before.id),
			updateFields: {
				company: 'Initech',
				phone: '+1 212 555 0100',
				customFields: { field: [{ name: 'tier', value: 'gold' }] },
				extraFields: '{"notes": "from JSON", "company": "overridden by the field"}',
			},
		});
		const [after] = await h.sandbox.admin.records('contacts');
		expect(after).toMatchObject({ ...before, company: 'Initech', phone: '+1 212 555 0100', notes: 'from JSON', updated_at: after.updated_at });
		expect(jsonOf(result)).toEqual([after]);
		const log = await h.requests();
		expect(log.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /contacts/${before.id}`, `PUT /contacts/${before.id}`]);
		const { id, created_at, updated_at, ...unchanged } = before;
		expect([id, created_at, updated_at].every((value) => value !== undefined)).toBe(true);
		expect(log[1].body).toEqual({
			...unchanged,
			company: 'Initech',
			phone: '+1 212 555 0100',
			notes: 'from JSON',
			custom_fields: { ...(before.custom_fields as object), tier: 'gold' },
		});
	});

	it.each([
		[{ extraFields: '{first_name: Ada}' }, /^Extra Fields \(JSON\) is not valid JSON/],
		[{ extraFields: '[1, 2]' }, /^Extra Fields \(JSON\) must be a JSON object such as \{"tags": \["vip"\]\}$/],
		[{}, /^Update Fields is empty: add at least one field to change$/],
	])('refuses the update %j without a request', async (updateFields, message) => {
		const result = await h.run({ resource: 'contact', operation: 'update', contactId: byId(7), updateFields });
		expect(result.error?.message).toMatch(message);
		expect(await h.requests()).toEqual([]);
	});

	it('deletes a contact and outputs n8n\'s confirmation, {deleted: true} with the ID', async () => {
		await h.sandbox.admin.seed({ contacts: 2 });
		const [first, second] = await h.sandbox.admin.records('contacts');
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) });
		expect(jsonOf(result)).toEqual([{ deleted: true, id: first.id }]);
		expect(Object.keys(jsonOf(result)[0])).toEqual(['deleted', 'id']);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.id)).toEqual([second.id]);
	});

	it('outputs {deleted, id} when the ERP answers 204 without a body', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'DELETE', path: '/contacts' }, fault: { kind: 'status', status: 204, body: 'empty', afterCommit: true } });
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([{ deleted: true, id: contact.id }]);
		expect(await h.sandbox.admin.records('contacts')).toEqual([]);
	});

	it('returns all contacts over several pages, each once', async () => {
		await h.sandbox.admin.seed({ contacts: 250 });
		const stored = await h.sandbox.admin.records('contacts');
		await h.mark();
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true });
		expect(jsonOf(result)).toEqual(stored);
		expect((await h.requests()).map((r) => r.query)).toEqual([
			{ page: '1', per_page: '100' },
			{ page: '2', per_page: '100' },
			{ page: '3', per_page: '100' },
		]);
	});

	it('with Concurrency 4, reads four pages at a time and still returns each contact once, in order', async () => {
		await h.sandbox.admin.seed({ contacts: 1000 });
		const stored = await h.sandbox.admin.records('contacts');
		// Requests sent together must arrive within latencyMs of each other to be seen together: a whole second,
		// so that a loaded machine cannot spread them further.
		const latencyMs = 1000;
		await h.sandbox.admin.setFaults({ latencyMs });
		await h.mark();
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true, options: { concurrency: 4 } });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(stored);
		const log = await h.requests();
		expect(log.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		// Each request was on the wire from its arrival for at least latencyMs, so the requests that arrived within
		// latencyMs before one were all in flight with it: a count that can miss overlaps, never invent one.
		const arrivals = log.map((r) => Date.parse(r.at));
		const mostAtOnce = Math.max(...arrivals.map((start) => arrivals.filter((t) => t <= start && start < t + latencyMs).length));
		expect(mostAtOnce).toBe(4);
	});

	it('sends Limit as per_page and filters as query parameters', async () => {
		await h.sandbox.admin.seed({ contacts: 60 });
		await h.mark();
		const result = await h.run({
			resource: 'contact',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { company: 'X Corp', createdAfter: '2020-01-01T00:00:00.000Z', queryParameters: { parameter: [{ name: 'sort', value: '-created_at' }] } },
		});
		expect(result.error).toBeUndefined();
		expect((await h.requests()).map((r) => r.query)).toEqual([
			{ company: 'X Corp', created_after: '2020-01-01T00:00:00.000Z', sort: '-created_at', page: '1', per_page: '5' },
		]);
	});

	it('returns the records as one item when asked', async () => {
		await h.sandbox.admin.seed({ contacts: 12 });
		const stored = await h.sandbox.admin.records('contacts');
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true, options: { returnAsOneItem: true } });
		expect(jsonOf(result)).toEqual([{ records: stored, count: 12 }]);
	});

	it('refuses a free-form page parameter', async () => {
		const result = await h.run({
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: { queryParameters: { parameter: [{ name: 'page', value: '3' }] } },
		});
		expect(result.error?.message).toBe('Query Parameters may not set "page": paging follows Return All and Limit');
		expect(await h.requests()).toEqual([]);
	});
});

describe('Invoice', () => {
	beforeEach(() => h.sandbox.admin.seed({ contacts: 3 }));

	async function firstContact() {
		return (await h.sandbox.admin.records('contacts'))[0];
	}

	it('creates an invoice from line items; the ERP computes the totals', async () => {
		const contact = await firstContact();
		// Due a year after today's UTC date (the sandbox's issue date), on whatever day and in whatever zone.
		const due = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: {
				line: [
					{ description: 'Consulting', quantity: 3, unitPrice: 120, taxRate: 19 },
					{ description: 'Travel', quantity: 1, unitPrice: 80.5, taxRate: 0 },
				],
			},
			additionalFields: { currency: 'USD', dueDate: `${due}T00:00:00`, notes: 'Thanks' },
		});
		expect(result.error).toBeUndefined();
		const [invoice] = await h.sandbox.admin.records('invoices');
		expect(invoice).toMatchObject({ contact_id: contact.id, currency: 'USD', due_date: due, status: 'draft', notes: 'Thanks' });
		expect(invoice.lines).toHaveLength(2);
		expect(jsonOf(result)).toEqual([invoice]);
		const [request] = await h.requests();
		expect(request.body).toEqual({
			contact_id: contact.id,
			currency: 'USD',
			due_date: due,
			notes: 'Thanks',
			lines: [
				{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 19 },
				{ description: 'Travel', quantity: 1, unit_price: 80.5, tax_rate: 0 },
			],
		});
	});

	it('outputs what was sent, lines included, under an answer that holds less (the answer wins a clash)', async () => {
		const contact = await firstContact();
		await h.sandbox.admin.queueFault({
			match: { method: 'POST', path: '/invoices' },
			fault: { kind: 'status', status: 201, body: { success: true, data: { id: 501, number: 'INV-000501', currency: 'EUR' } }, afterCommit: true },
		});
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Consulting', quantity: 3, unitPrice: 120, taxRate: 19 }] },
			additionalFields: { currency: 'USD' },
		});
		expect(jsonOf(result)).toEqual([
			{
				id: 501,
				number: 'INV-000501',
				currency: 'EUR',
				contact_id: contact.id,
				lines: [{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 19 }],
			},
		]);
		expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /invoices']);
	});

	it('takes the lines from Extra Fields (JSON) when Line Items is empty', async () => {
		const contact = await firstContact();
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			additionalFields: { extraFields: { lines: [{ description: 'Widget', quantity: 2, unit_price: 10 }] } },
		});
		expect(result.error).toBeUndefined();
		expect((await h.sandbox.admin.records('invoices'))[0].lines).toHaveLength(1);
	});

	it('leaves the rules for lines to the ERP: an invoice without lines, or a negative quantity, is its 422', async () => {
		const contact = await firstContact();
		const none = await h.run({ resource: 'invoice', operation: 'create', contactId: byId(contact.id) });
		expect(none.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): lines: /);
		const negative = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Consulting', quantity: -1, unitPrice: 10 }] },
		});
		expect(negative.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): lines\[0\]\.quantity: /);
		expect((await h.requests()).map((r) => r.status)).toEqual([422, 422]);
		expect(await h.sandbox.admin.records('invoices')).toEqual([]);
	});

	it('shows the ERP field messages when it refuses an invoice (unknown contact)', async () => {
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(999),
			lineItems: { line: [{ description: 'X', quantity: 1, unitPrice: 1 }] },
		});
		expect(result.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): contact_id: /);
	});

	it('sends an invoice and marks it paid; a second mark-paid is refused with the reason', async () => {
		const contact = await firstContact();
		await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'X', quantity: 1, unitPrice: 50 }] },
		});
		const [draft] = await h.sandbox.admin.records('invoices');

		const sent = await h.run({ resource: 'invoice', operation: 'send', invoiceId: byId(draft.id), additionalFields: { email: 'billing@example.com' } });
		expect(jsonOf(sent)[0]).toMatchObject({ id: draft.id, status: 'sent' });
		expect((await h.sandbox.admin.records('invoices'))[0].status).toBe('sent');

		const paid = await h.run({
			resource: 'invoice',
			operation: 'markPaid',
			invoiceId: byId(draft.id),
			additionalFields: { paymentMethod: 'card', reference: 'TX-1' },
		});
		const [stored] = await h.sandbox.admin.records('invoices');
		expect(stored).toMatchObject({ status: 'paid', amount_due: 0, payment_method: 'card', payment_reference: 'TX-1' });
		expect(jsonOf(paid)).toEqual([stored]);

		const again = await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(draft.id) });
		expect(again.error?.message).toMatch(/^The ERP refused to mark invoice \d+ as paid \(422\): /);
	});

	it('gets one invoice and lists invoices by status', async () => {
		await h.sandbox.admin.seed({ invoices: 40 });
		const invoices = await h.sandbox.admin.records('invoices');
		const one = await h.run({ resource: 'invoice', operation: 'get', invoiceId: byId(invoices[5].id) });
		expect(jsonOf(one)).toEqual([invoices[5]]);

		const paid = await h.run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { status: 'paid' } });
		const expected = invoices.filter((i) => i.status === 'paid');
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(paid)).toEqual(expected);
	});
});

describe('Product', () => {
	it('creates a product', async () => {
		const result = await h.run(createWith('product', { sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false }));
		const [product] = await h.sandbox.admin.records('products');
		expect(product).toMatchObject({ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9, low_stock_threshold: 5, active: false });
		expect(jsonOf(result)).toEqual([product]);
	});

	it('sends what only the ERP can judge (SKU characters, ranges) and shows its 422 with the field', async () => {
		const sku = await h.run(createWith('product', { sku: 'chair/oak 01', name: 'Oak chair' }));
		expect(sku.error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		const threshold = await h.run(createWith('product', { sku: 'A1', name: 'A', low_stock_threshold: -2 }));
		expect(threshold.error?.message).toMatch(/^The ERP refused to create the product \(422\): low_stock_threshold: /);
		expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /products 422', 'POST /products 422']);
	});

	it('refuses a number field whose value is no number, naming the field, before sending', async () => {
		const result = await h.run(createWith('product', { sku: 'A1', name: 'A', unit_price: '={{ $json.price }}' }), { input: [{ price: 'cheap' }] });
		expect(result.error?.message).toBe("Invalid input for 'unit_price' [item 0]");
		expect(await h.requests()).toEqual([]);
	});

	it('reports a taken SKU with the field message', async () => {
		await h.run(createWith('product', { sku: 'DUP-1', name: 'First' }));
		const second = await h.run(createWith('product', { sku: 'DUP-1', name: 'Second' }));
		expect(second.error?.message).toMatch(/^The ERP refused to create the product \(422\): sku: /);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});

	it('gets, updates and lists products', async () => {
		await h.sandbox.admin.seed({ products: 30 });
		const products = await h.sandbox.admin.records('products');
		const one = await h.run({ resource: 'product', operation: 'get', productId: byId(products[2].id) });
		expect(jsonOf(one)).toEqual([products[2]]);

		await h.mark();
		const updated = await h.run({ resource: 'product', operation: 'update', productId: byId(products[2].id), updateFields: { unitPrice: 12.5 } });
		const stored = (await h.sandbox.admin.records('products'))[2];
		expect(stored).toEqual({ ...products[2], unit_price: 12.5, updated_at: stored.updated_at });
		expect(jsonOf(updated)).toEqual([stored]);
		const [read, put] = await h.requests();
		expect([read.method, put.method]).toEqual(['GET', 'PUT']);
		const { id, created_at, updated_at, stock_total, ...rest } = products[2];
		expect([id, created_at, updated_at, stock_total].every((value) => value !== undefined)).toBe(true);
		expect(put.body).toEqual({ ...rest, unit_price: 12.5 });
	});

	it('filters by active and low stock in three states each: only yes, only no, or no filter', async () => {
		await h.sandbox.admin.seed({ products: 40 });
		const all = await h.sandbox.admin.records('products');
		const ids = async (filters: Record<string, string>) =>
			jsonOf(await h.run({ resource: 'product', operation: 'getAll', returnAll: true, filters })).map((p) => p.id);
		const isLow = (p: (typeof all)[number]) => (p.stock_total as number) < (p.low_stock_threshold as number);
		expect(await ids({ lowStock: 'true' })).toEqual(all.filter(isLow).map((p) => p.id));
		expect(await ids({ lowStock: 'false' })).toEqual(all.filter((p) => !isLow(p)).map((p) => p.id));
		expect(await ids({ lowStock: '' })).toEqual(all.map((p) => p.id));
		expect(all.filter(isLow).length).toBeGreaterThan(0);
		await h.run({ resource: 'product', operation: 'update', productId: byId(all[0].id), updateFields: { active: false } });
		const now = await h.sandbox.admin.records('products');
		expect(now[0].active).toBe(false);
		expect(await ids({ active: 'false' })).toEqual(now.filter((p) => p.active === false).map((p) => p.id));
		expect(await ids({ active: 'true' })).toEqual(now.filter((p) => p.active === true).map((p) => p.id));
		expect(await ids({ active: '' })).toEqual(now.map((p) => p.id));
	});

	it('returns the stock of a product, one item per warehouse', async () => {
		await h.sandbox.admin.seed({ products: 2 });
		const [product] = await h.sandbox.admin.records('products');
		await h.sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 17, reserved: 4 });
		const expected = (await h.sandbox.admin.records('stock')).filter((row) => row.product_id === product.id);
		const result = await h.run({ resource: 'product', operation: 'getStock', productId: byId(product.id) });
		expect(jsonOf(result)).toHaveLength(3);
		expect(jsonOf(result).map((row) => row.warehouse_id)).toEqual(expected.map((row) => row.warehouse_id));
		expect(jsonOf(result).find((row) => row.warehouse_id === 2)).toMatchObject({ quantity: 17, reserved: 4, available: 13 });
	});
});

describe('Employee', () => {
	it('adds an employee (and the ERP emits employee.hired)', async () => {
		const result = await h.run(
			createWith('employee', {
				first_name: 'Linus',
				last_name: 'Torvalds',
				email: 'linus@example.com',
				department: 'Engineering',
				employment_type: 'part_time',
				salary: 90000,
				hire_date: '2026-11-01T00:00:00',
			}),
		);
		const [employee] = await h.sandbox.admin.records('employees');
		expect(employee).toMatchObject({ first_name: 'Linus', department: 'Engineering', employment_type: 'part_time', salary: 90000, hire_date: '2026-11-01' });
		expect(jsonOf(result)).toEqual([employee]);
		expect((await h.sandbox.admin.events()).map((e) => e.event)).toContain('employee.hired');
	});

	it('leaves required fields and allowed values to the ERP: its 422 names them', async () => {
		const result = await h.run(createWith('employee', { first_name: 'A', last_name: '={{ $json.last }}', email: 'a@example.com', employment_type: 'intern' }), {
			input: [{ last: '' }],
		});
		expect(result.error?.message).toMatch(/^The ERP refused to create the employee \(422\): /);
		expect(result.error?.message).toMatch(/last_name: is required/);
		expect(result.error?.message).toMatch(/employment_type: /);
		expect((await h.requests()).map((r) => r.body)).toEqual([{ first_name: 'A', email: 'a@example.com', employment_type: 'intern' }]);
	});

	it('refuses a salary that is no number at all, naming the field, before sending', async () => {
		const result = await h.run(createWith('employee', { first_name: 'A', last_name: 'B', email: 'a@example.com', salary: '={{ "lots" }}' }));
		expect(result.error?.message).toBe("Invalid input for 'salary' [item 0]");
		expect(await h.requests()).toEqual([]);
	});

	it('gets, lists and returns the payroll history one item per pay run', async () => {
		await h.sandbox.admin.seed({ employees: 8 });
		const employees = await h.sandbox.admin.records('employees');
		const payroll = await h.sandbox.admin.records('payroll');
		const withPay = employees.find((e) => payroll.some((p) => p.employee_id === e.id));
		expect(withPay).toBeDefined();

		const one = await h.run({ resource: 'employee', operation: 'get', employeeId: byId(withPay?.id) });
		expect(jsonOf(one)).toEqual([withPay]);

		const list = await h.run({ resource: 'employee', operation: 'getAll', returnAll: false, limit: 3 });
		expect(jsonOf(list)).toEqual(employees.slice(0, 3));

		const history = await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: true });
		const expectedIds = payroll.filter((p) => p.employee_id === withPay?.id).map((p) => p.id).sort();
		expect(jsonOf(history).map((p) => p.id).sort()).toEqual(expectedIds);

		const latest = await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: false, limit: 2 });
		expect(jsonOf(latest)).toHaveLength(Math.min(2, expectedIds.length));
	});
});
