import type { VariantName } from '../../../../tooling/harness/sandbox';
import { jsonOf, useErpHarness, byId, createWith, createFromInput } from './setup';

// ERPs that chose another page size, limit or paging behaviour than the sandbox (docs/api-assumptions.md).
describe('paging on ERPs with other page limits', () => {
	const h = useErpHarness({ contacts: 130 });

	const getAll = (extra: object = {}) => ({ resource: 'contact', operation: 'getAll', returnAll: true, ...extra });

	it.each<[VariantName, string]>([
		['small-pages', 'caps per_page at 20 silently'],
		['strict-paging', 'refuses per_page above 50 with 422'],
		['strict-paging-400', 'refuses per_page above 50 with 400'],
		['fixed-pages', 'ignores per_page and serves 25'],
		['no-total', 'sends no meta.total'],
	])('%s (%s): Return All gives every record once, in order, without an error; so do Limit and Concurrency', async (variant) => {
		await h.sandbox.admin.setVariants([variant]);
		const stored = await h.sandbox.admin.records('contacts');
		for (const options of [{}, { concurrency: 4 }]) {
			const all = await h.run(getAll({ options }));
			expect(all.error).toBeUndefined();
			expect(jsonOf(all)).toEqual(stored);
		}
		const limited = await h.run({ resource: 'contact', operation: 'getAll', returnAll: false, limit: 70 });
		expect(jsonOf(limited)).toEqual(stored.slice(0, 70));
	});

	it('page-ignored: a service that always answers the first page ends in a clear error, not a silent first page', async () => {
		await h.sandbox.admin.setVariants(['page-ignored']);
		const result = await h.run(getAll());
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/page/i);
		expect((await h.requests()).length).toBeLessThanOrEqual(3);
	});

	it('strict-paging: Create or Update finds existing contacts through the refused page size too', async () => {
		await h.sandbox.admin.setVariants(['strict-paging', 'ignored-filters']);
		const [first] = await h.sandbox.admin.records('contacts');
		const result = await h.run(createFromInput('contact', {}, 'upsert'), { input: [{ email: first.email, company: 'Found Through Pages' }] });
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: first.id, company: 'Found Through Pages', action: 'updated' })]);
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(130);
	});
});

// ERPs that answer writes, or judge values, other than the sandbox does by default.
describe('writes on ERPs that chose otherwise', () => {
	const h = useErpHarness({ contacts: 3, products: 3 });

	it('replace-put: Update and Create or Update keep every field the user did not touch', async () => {
		await h.sandbox.admin.setVariants(['replace-put']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const [product] = await h.sandbox.admin.records('products');
		await h.run({ resource: 'contact', operation: 'update', contactId: byId(contact.id), updateFields: { company: 'Initech' } });
		await h.run({ resource: 'product', operation: 'update', productId: byId(product.id), updateFields: { unitPrice: 9.5 } });
		await h.run(createWith('product', { sku: product.sku as string, name: 'Renamed' }, {}, 'upsert'));
		const afterContact = await h.sandbox.admin.record('contacts', contact.id);
		const afterProduct = await h.sandbox.admin.record('products', product.id);
		expect(afterContact).toEqual({ ...contact, company: 'Initech', updated_at: afterContact?.updated_at });
		expect(afterProduct).toEqual({ ...product, unit_price: 9.5, name: 'Renamed', updated_at: afterProduct?.updated_at });
	});

	it('bare-create: a create answered without the record outputs the record, found by its key; a contact without e-mail (no key) is a clear error (the rest: ../transport/requests.test.ts, a create that expects a record)', async () => {
		await h.sandbox.admin.setVariants(['bare-create']);
		const contact = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		const product = await h.run(createWith('product', { sku: 'BARE-1', name: 'Bare' }));
		const employee = await h.run(createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }));
		const [stored] = (await h.sandbox.admin.records('contacts')).filter((c) => c.email === 'ada@example.com');
		expect(jsonOf(contact)).toEqual([stored]);
		expect(jsonOf(product)).toEqual([(await h.sandbox.admin.records('products')).find((p) => p.sku === 'BARE-1')]);
		expect(jsonOf(employee)).toEqual(await h.sandbox.admin.records('employees'));
		const noEmail = await h.run(createWith('contact', { first_name: 'Nomail' }));
		expect(noEmail.error?.message).toBe('The ERP answered that the contact was created but sent no contact back');
		expect((noEmail.error as { description?: string }).description).toMatch(/created/);
		expect((await h.requests()).filter((r) => r.method === 'POST')).toHaveLength(4);
	});

	it('created-200: a create answered 200 instead of 201 is a create like any other', async () => {
		await h.sandbox.admin.setVariants(['created-200']);
		const result = await h.run(createWith('product', { sku: 'OK-200', name: 'Two hundred' }));
		expect(jsonOf(result)).toEqual([(await h.sandbox.admin.records('products')).find((p) => p.sku === 'OK-200')]);
	});

	it('delete-204 and soft-delete: {deleted: true, id} whether the ERP answers nothing or the removed record', async () => {
		const [first, second] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.setVariants(['delete-204']);
		const bare = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) });
		expect(jsonOf(bare)).toEqual([{ deleted: true, id: first.id }]);
		await h.sandbox.admin.setVariants(['soft-delete']);
		const soft = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(second.id) });
		expect(jsonOf(soft)).toEqual([{ deleted: true, id: second.id }]);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.id)).not.toContain(second.id);
	});

	it('lenient-rules: values our sandbox would refuse reach an ERP that accepts them, and are stored', async () => {
		await h.sandbox.admin.setVariants(['lenient-rules']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const longName = 'Chair '.repeat(60).trim();
		await h.run(createWith('product', { sku: 'chair/oak 01 ü', name: longName, currency: 'usd' }));
		await h.run(createWith('employee', { first_name: 'Ida', last_name: 'Intern', email: 'ida@example.com', employment_type: 'intern', salary: 0 }));
		const invoice = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1.125, unitPrice: 10 }] },
		});
		await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(jsonOf(invoice)[0].id), additionalFields: { paymentMethod: 'paypal' } });
		expect((await h.sandbox.admin.records('products')).find((p) => p.sku === 'chair/oak 01 ü')).toMatchObject({ name: longName, currency: 'usd' });
		expect((await h.sandbox.admin.records('employees'))[0]).toMatchObject({ employment_type: 'intern', salary: 0 });
		expect((await h.sandbox.admin.records('invoices'))[0]).toMatchObject({ payment_method: 'paypal', status: 'paid' });
		expect((await h.requests()).every((r) => r.status !== null && r.status < 300)).toBe(true);
	});

	it('tight-rules: a limit of the ERP that the node cannot know is its 422, shown with the field', async () => {
		await h.sandbox.admin.setVariants(['tight-rules']);
		const result = await h.run(createWith('contact', { first_name: 'Maximiliane-Konstanze', email: 'max@example.com' }));
		expect(result.error?.message).toMatch(/^The ERP refused to create the contact \(422\): first_name: /);
	});
});

// ERPs whose error answers have another shape than the sandbox's envelope.
describe('error answers of other shapes', () => {
	const h = useErpHarness();

	const takenSku = async () => {
		await h.run(createWith('product', { sku: 'DUP-1', name: 'First' }));
		await h.mark();
		return await h.run(createWith('product', { sku: 'DUP-1', name: 'Second' }), { continueOnFail: true });
	};

	it('success-false-200: {success: false} answered 200 is an error with the ERP\'s message and code, never a record', async () => {
		await h.sandbox.admin.setVariants(['success-false-200']);
		const result = await takenSku();
		const [item] = jsonOf(result);
		expect(Object.keys(item).sort()).toEqual(expect.arrayContaining(['error']));
		expect(item).not.toHaveProperty('id');
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/sku/);
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/validation_failed/);
		expect((await h.requests()).map((r) => r.status)).toEqual([200]);
		expect(await h.sandbox.admin.records('products')).toHaveLength(1);
	});

	it.each<[VariantName, RegExp]>([
		['problem-json', /^The ERP refused to create the product \(422\): sku: .+/],
		['errors-array', /^The ERP refused to create the product \(422\): sku: .+/],
		['errors-object', /^The ERP refused to create the product \(422\): sku: .+/],
		['plain-text-errors', /sku/i],
	])('%s: a 422 shows the field and the ERP’s message', async (variant, shown) => {
		await h.sandbox.admin.setVariants([variant]);
		const [item] = jsonOf(await takenSku());
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(shown);
	});
});

// Creates whose answer was lost: the node looks the key up before it reports, and never repeats a POST
// that a lookup has not proved unwritten. The sandbox's request log is the witness.
describe('creates that resolve their own unclear failures', () => {
	const h = useErpHarness({ contacts: 2 });

	const posts = async () => (await h.requests()).filter((r) => r.method === 'POST');

	it.each([
		['a contact, after a 500', 'contacts', { kind: 'status', status: 500 }, createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }), { email: 'ada@example.com' }],
		['a contact, after a dropped connection', 'contacts', { kind: 'drop' }, createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }), { email: 'ada@example.com' }],
		['a contact, after an HTML 502 page', 'contacts', { kind: 'html' }, createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }), { email: 'ada@example.com' }],
		['an employee, after a dropped connection', 'employees', { kind: 'drop' }, createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }), { email: 'lin@example.com' }],
		['a Create or Update of a product, after a 503', 'products', { kind: 'status', status: 503 }, createWith('product', { sku: 'UPS-1', name: 'Upserted' }, {}, 'upsert'), { sku: 'UPS-1', action: 'created' }],
	] as const)('%s the ERP saved it behind: the item succeeds with the saved record, recovered, and is not sent again', async (_label, resource, fault, parameters, fields) => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: `/${resource}` }, fault: { ...fault, afterCommit: true } });
		const result = await h.run(parameters);
		const [key, value] = Object.entries(fields)[0];
		const [stored, ...more] = (await h.sandbox.admin.records(resource)).filter((record) => (record as unknown as Record<string, unknown>)[key] === value);
		expect({ more, output: jsonOf(result), posts: (await posts()).length }).toEqual({ more: [], output: [expect.objectContaining({ id: stored.id, ...fields, recovered: true })], posts: 1 });
	});

	it('a 500 before anything was saved: the lookup proves it, and the create is sent once more', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/products' }, fault: { kind: 'status', status: 500, afterCommit: false } });
		const result = await h.run(createWith('product', { sku: 'RETRY-1', name: 'Retried' }));
		expect(result.error).toBeUndefined();
		expect((await h.sandbox.admin.records('products')).filter((p) => p.sku === 'RETRY-1')).toHaveLength(1);
		expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /products 500', 'GET /products 200', 'POST /products 201']);
	});

	it.each([
		['an invoice, which has no natural key', 'invoices', (contactId: number) => ({ resource: 'invoice', operation: 'create', contactId: byId(contactId), lineItems: { line: [{ description: 'Work', quantity: 1, unitPrice: 10 }] } })],
		['a contact without an e-mail, which cannot be looked up', 'contacts', () => createWith('contact', { first_name: 'Nomail' })],
	])('%s: the unclear failure stays an error that says the ERP may have created it; never sent twice', async (_label, resource, parameters) => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: `/${resource}` }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run(parameters(contact.id));
		expect((result.error as { description?: string }).description).toMatch(/may have/);
		expect(await posts()).toHaveLength(1);
	});

	it('offset-timestamps and ignored-filters: an import of 60 contacts with 20% 5xx and 10% drops after commit ends with every item succeeded, each contact once', async () => {
		await h.sandbox.admin.setVariants(['offset-timestamps', 'ignored-filters']);
		// Seeded, so that the same requests meet the same faults on every run.
		await h.sandbox.admin.setFaults({ errorRate: 0.2, dropRate: 0.1, faultTiming: 'after', seed: 1 });
		const input = Array.from({ length: 60 }, (_, i) => ({ first_name: `Row${i}`, email: `row${i}@example.com` }));
		const result = await h.run(createFromInput('contact', { options: { concurrency: 5, maxRetries: 10 } }, 'upsert'), { input, continueOnFail: true });
		await h.sandbox.admin.setFaults({ errorRate: 0, dropRate: 0 });
		expect(jsonOf(result).filter((json) => json.error)).toEqual([]);
		const stored = (await h.sandbox.admin.records('contacts')).filter((c) => String(c.email).startsWith('row'));
		expect(stored.map((c) => c.email).sort()).toEqual(input.map((row) => row.email).sort());
		// The faults really met creates: answers lost after the ERP saved the contact, by a 5xx and by a drop.
		const faulted = (await posts()).filter((r) => r.fault?.appStatus === 201);
		expect(new Set(faulted.map((r) => r.fault?.kind))).toEqual(new Set(['status', 'drop']));
	});
});
