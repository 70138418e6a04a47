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

	it('strict-paging: learns the accepted size from the refusal, once per node run', async () => {
		await h.sandbox.admin.setVariants(['strict-paging']);
		const result = await h.run(getAll());
		expect(jsonOf(result)).toHaveLength(130);
		const asked = (await h.requests()).map((r) => `${r.query.page}/${r.query.per_page} ${r.status}`);
		expect(asked).toEqual(['1/100 422', '1/50 200', '2/50 200', '3/50 200']);
	});

	it('strict-paging-400 with an unhelpful message: halves the size until the ERP accepts it', async () => {
		await h.sandbox.admin.setVariants(['strict-paging-400']);
		const result = await h.run(getAll());
		expect(jsonOf(result)).toHaveLength(130);
		const sizes = (await h.requests()).map((r) => Number(r.query.per_page));
		expect(sizes.filter((size) => size <= 50).length).toBeGreaterThan(0);
		expect((await h.requests()).filter((r) => r.status !== 200).length).toBeLessThanOrEqual(2);
	});

	it('Page Size asks the ERP for that many records per page', async () => {
		await h.sandbox.admin.setVariants(['strict-paging']);
		const result = await h.run(getAll({ options: { pageSize: 40 } }));
		expect(jsonOf(result)).toHaveLength(130);
		expect((await h.requests()).map((r) => `${r.query.per_page} ${r.status}`)).toEqual(['40 200', '40 200', '40 200', '40 200']);
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
		const result = await h.run({
			resource: 'contact',
			operation: 'upsert',
			columns: { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: [] },
		}, { input: [{ email: first.email, company: 'Found Through Pages' }] });
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

	it('bare-create: a create answered without the record outputs the record, found by its key', async () => {
		await h.sandbox.admin.setVariants(['bare-create']);
		const contact = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		const product = await h.run(createWith('product', { sku: 'BARE-1', name: 'Bare' }));
		const employee = await h.run(createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }));
		const [stored] = (await h.sandbox.admin.records('contacts')).filter((c) => c.email === 'ada@example.com');
		expect(jsonOf(contact)).toEqual([stored]);
		expect(jsonOf(product)).toEqual([(await h.sandbox.admin.records('products')).find((p) => p.sku === 'BARE-1')]);
		expect(jsonOf(employee)).toEqual(await h.sandbox.admin.records('employees'));
		const posts = (await h.requests()).filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(3);
	});

	it('bare-create: a record without a key (an invoice, a contact without e-mail) is a clear error that says it was probably created', async () => {
		await h.sandbox.admin.setVariants(['bare-create']);
		const [contact] = await h.sandbox.admin.records('contacts');
		const invoice = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1, unitPrice: 10 }] },
		});
		expect(invoice.error?.message).toMatch(/sent no invoice/);
		expect((invoice.error as { description?: string }).description).toMatch(/created/);
		const noEmail = await h.run(createWith('contact', { first_name: 'Nomail' }));
		expect(noEmail.error?.message).toBe('The ERP answered that the contact was created but sent no contact back');
		expect((await h.requests()).filter((r) => r.method === 'POST')).toHaveLength(2);
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

	it.each<VariantName>(['problem-json', 'errors-array', 'errors-object'])('%s: a 422 shows the field and its message', async (variant) => {
		await h.sandbox.admin.setVariants([variant]);
		const [item] = jsonOf(await takenSku());
		expect(item.error).toMatch(/^The ERP refused to create the product \(422\): sku: .+/);
	});

	it('plain-text-errors: a 422 in plain text shows the ERP\'s sentence', async () => {
		await h.sandbox.admin.setVariants(['plain-text-errors']);
		const [item] = jsonOf(await takenSku());
		expect(`${String(item.error)} ${String(item.description)}`).toMatch(/sku/i);
	});
});

// ERPs that report their rate limit (or a gateway's) in other ways. A wrong wait would exceed the test's time limit.
describe('rate limits and waits on ERPs that report them otherwise', () => {
	const h = useErpHarness({ contacts: 2 });

	it('gateway-headers: a 5xx carrying a rate-limit reset an hour away is retried on the short schedule', async () => {
		await h.sandbox.admin.setVariants(['gateway-headers']);
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 503 }, times: 2 });
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([contact]);
		const log = await h.requests();
		expect(log.map((r) => r.status)).toEqual([503, 503, 200]);
		const first = Date.parse(log[0].at);
		expect(Date.parse(log[2].at) - first).toBeLessThan(60_000);
	});

	// The wait each 429 names is 2 s or more, above the node's own first back-off (at most 1 s): a retry that
	// comes that late was waiting for the named time.
	it.each([
		['ietf-ratelimit', 'a 429 whose Retry-After is an HTTP date', () => ({ 'Retry-After': new Date(Date.now() + 3000).toUTCString() })],
		['no-retry-after', 'a 429 naming only X-RateLimit-Reset', () => ({ 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 2) })],
	] as const)('%s: %s is waited out until the time it names, then the request succeeds', async (variant, _what, namedWait) => {
		await h.sandbox.admin.setVariants([variant]);
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET' }, fault: { kind: 'rateLimit', headers: namedWait() } });
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([contact]);
		const log = await h.requests();
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(Date.parse(log[1].at) - Date.parse(log[0].at)).toBeGreaterThanOrEqual(1500);
	});

	it('a 429 that names a wait beyond the node\'s wait budget fails at once, saying when to try again', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		// The read-only token: an ERP of its own, so that the hour this 429 names holds no other test's requests.
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) }, { token: h.sandbox.readOnlyToken });
		expect(`${result.error?.message} ${(result.error as { description?: string }).description}`).toMatch(/wait 1 h .*Try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/s);
		expect((await h.requests()).map((r) => r.status)).toEqual([429]);
	});
});

// An ERP that tells its limit only by a 429's Retry-After (no count, no reset headers). A sandbox of its own: the
// rate controller of an ERP (its Base URL) lives as long as the module, so no pace learnt by another test's 429s is
// carried into this one.
describe('an ERP that tells its limit only by the 429\'s Retry-After', () => {
	const h = useErpHarness({ contacts: 0 });

	it('paces the runs after the first refusals instead of sending all at once after each wait; every contact is created once', async () => {
		await h.sandbox.admin.setVariants(['retry-after-only']);
		await h.sandbox.admin.setFaults({ rateLimit: { limit: 20, windowMs: 1000 } });
		const input = Array.from({ length: 80 }, (_, i) => ({ first: `P${i}`, email: `paced${i}@example.com` }));
		const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' }, { options: { concurrency: 10 } });
		const result = await h.run(create, { input });
		expect(result.error).toBeUndefined();
		const emails = (await h.sandbox.admin.records('contacts')).map((contact) => String(contact.email));
		expect(emails.sort()).toEqual(input.map((row) => row.email).sort());
		// The first window's overflow is refused (nothing told of the limit before); from the first request accepted
		// after that, few are. Sent all at once after each named wait, about half of each window's would be refused.
		const log = (await h.requests()).filter((r) => r.method === 'POST');
		const refusedShare = (requests: typeof log) => requests.filter((r) => r.status === 429).length / requests.length;
		const firstRefused = log.findIndex((r) => r.status === 429);
		const resumed = log.slice(log.findIndex((r, i) => i > firstRefused && r.status === 201));
		expect(refusedShare(log)).toBeLessThan(0.2);
		expect(refusedShare(resumed)).toBeLessThan(0.1);
	});
});

// Creates whose answer was lost: the node looks the key up before it reports, and never repeats a POST
// that a lookup has not proved unwritten. The sandbox's request log is the witness.
describe('creates that resolve their own unclear failures', () => {
	const h = useErpHarness({ contacts: 2 });

	const posts = async () => (await h.requests()).filter((r) => r.method === 'POST');

	it.each([
		['a 500 after the ERP saved it', { kind: 'status', status: 500, afterCommit: true }],
		['a dropped connection after the save', { kind: 'drop', afterCommit: true }],
		['an HTML 502 page after the save', { kind: 'html', afterCommit: true }],
	] as const)('%s: the item succeeds with the saved contact, recovered, and is not sent again', async (_label, fault) => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault });
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		expect(result.error).toBeUndefined();
		const stored = (await h.sandbox.admin.records('contacts')).filter((c) => c.email === 'ada@example.com');
		expect(stored).toHaveLength(1);
		expect(jsonOf(result)).toEqual([expect.objectContaining({ id: stored[0].id, email: 'ada@example.com', recovered: true })]);
		expect(await posts()).toHaveLength(1);
	});

	it('a 500 before anything was saved: the lookup proves it, and the create is sent once more', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/products' }, fault: { kind: 'status', status: 500, afterCommit: false } });
		const result = await h.run(createWith('product', { sku: 'RETRY-1', name: 'Retried' }));
		expect(result.error).toBeUndefined();
		expect((await h.sandbox.admin.records('products')).filter((p) => p.sku === 'RETRY-1')).toHaveLength(1);
		expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /products 500',
			'GET /products 200',
			'POST /products 201',
		]);
	});

	it('an employee and a Create or Update of a product resolve the same way', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/employees' }, fault: { kind: 'drop', afterCommit: true } });
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/products' }, fault: { kind: 'status', status: 503, afterCommit: true } });
		const employee = await h.run(createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }));
		const product = await h.run(createWith('product', { sku: 'UPS-1', name: 'Upserted' }, {}, 'upsert'));
		expect(jsonOf(employee)).toEqual([expect.objectContaining({ email: 'lin@example.com', recovered: true })]);
		expect(jsonOf(product)).toEqual([expect.objectContaining({ sku: 'UPS-1', action: 'created', recovered: true })]);
		expect(await h.sandbox.admin.records('employees')).toHaveLength(1);
		expect(await posts()).toHaveLength(2);
	});

	it('an invoice, which has no natural key, stays an error that says the ERP may have created it; never sent twice', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/invoices' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Work', quantity: 1, unitPrice: 10 }] },
		});
		expect((result.error as { description?: string }).description).toMatch(/may have/);
		expect(await posts()).toHaveLength(1);
	});

	it('a contact without an e-mail cannot be looked up: the unclear failure stays an error, never repeated', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run(createWith('contact', { first_name: 'Nomail' }));
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
