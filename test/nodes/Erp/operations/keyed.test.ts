import { createFromInput, createWith, jsonOf, useErpHarness } from './setup';

const h = useErpHarness();

const contactsFrom = (rows: Array<{ first: string; email: string }>) => rows.map(({ first, email }) => ({ first_name: first, email }));
const people = (count: number, suffix = '') =>
	Array.from({ length: count }, (_, i) => ({ first: `Person${i}${suffix}`, email: `person${i}@example.com` }));

describe('Create or Update (contact by e-mail, product by SKU) and Create or Get (employee by e-mail)', () => {
	const upsertContacts = (extra = {}) => createFromInput('contact', { options: { concurrency: 10 }, ...extra }, 'upsert');

	it('an import of 200 contacts run twice: 200 contacts, the second run 200 updated, no POST for a key that existed (the reliability suite runs 1,000 in a real n8n)', async () => {
		const first = await h.run(upsertContacts(), { input: contactsFrom(people(200)) });
		expect(first.error).toBeUndefined();
		expect(jsonOf(first).map((json) => json.action)).toEqual(Array(200).fill('created'));
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(200);

		await h.mark();
		const second = await h.run(upsertContacts(), { input: contactsFrom(people(200, ' again')) });
		expect(second.error).toBeUndefined();
		expect(jsonOf(second).map((json) => json.action)).toEqual(Array(200).fill('updated'));
		const stored = await h.sandbox.admin.records('contacts');
		expect(stored).toHaveLength(200);
		expect(stored.every((contact) => String(contact.first_name).endsWith(' again'))).toBe(true);
		expect(jsonOf(second).map((json) => json.id)).toEqual(stored.map((contact) => contact.id));
		const methods = (await h.requests()).map((request) => request.method);
		expect(methods.filter((method) => method === 'POST')).toHaveLength(0);
		expect(methods.filter((method) => method === 'PUT')).toHaveLength(200);
	});

	it('the import under 20% 5xx and 10% dropped connections after the ERP saved the contact: every item succeeds, each e-mail POSTed once', async () => {
		// One queued answer per POST, in a shuffled order: 40 server errors and 20 drops after the save, the
		// rest answered normally (a latency fault of 0 ms). Lookups are not faulted.
		const kinds = [...Array(40).fill('status'), ...Array(20).fill('drop'), ...Array(140).fill('none')];
		let seed = 7;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let i = kinds.length - 1; i > 0; i--) {
			const j = Math.floor(random() * (i + 1));
			[kinds[i], kinds[j]] = [kinds[j], kinds[i]];
		}
		for (const kind of kinds) {
			const fault = kind === 'none' ? { kind: 'latency', delayMs: 0 } : { kind, status: 500, afterCommit: true };
			await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: fault as never });
		}

		const result = await h.run(upsertContacts({ options: { concurrency: 10 } }), { input: contactsFrom(people(200)), continueOnFail: true });
		const items = jsonOf(result);
		expect(items.filter((json) => json.error)).toEqual([]);
		expect(items.map((json) => json.action)).toEqual(Array(200).fill('created'));
		expect(items.filter((json) => json.recovered)).toHaveLength(60);

		const stored = await h.sandbox.admin.records('contacts');
		expect(stored.map((contact) => contact.email).sort()).toEqual(people(200).map((row) => row.email).sort());
		const posts = (await h.requests()).filter((request) => request.method === 'POST');
		expect(posts).toHaveLength(200);
		expect(new Set(posts.map((post) => (post.body as { email: string }).email)).size).toBe(200);
		expect(posts.filter((post) => post.fault && post.fault.kind !== 'latency')).toHaveLength(60);
	});

	it('looks the key up through the list filter, then updates only the fields given, keeping the rest', async () => {
		await h.sandbox.admin.seed({ contacts: 3 });
		const [, target] = await h.sandbox.admin.records('contacts');
		await h.mark();
		const result = await h.run(createWith('contact', { email: target.email as string, company: 'Initech' }, {}, 'upsert'));
		const after = (await h.sandbox.admin.records('contacts'))[1];
		expect(after).toEqual({ ...target, company: 'Initech', updated_at: after.updated_at });
		expect(jsonOf(result)).toEqual([{ ...after, action: 'updated' }]);
		const log = await h.requests();
		expect(log.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /contacts', `GET /contacts/${target.id}`, `PUT /contacts/${target.id}`]);
		expect(log[0].query).toMatchObject({ email: target.email });
	});

	it('two items with the same key in one run, at Concurrency 10: one creates, the other updates', async () => {
		const input = [
			{ first_name: 'Ada', email: 'ada@example.com' },
			{ first_name: 'Ada L.', email: 'ada@example.com' },
			{ first_name: 'Bob', email: 'bob@example.com' },
		];
		const result = await h.run(upsertContacts(), { input });
		expect(jsonOf(result).map((json) => json.action)).toEqual(['created', 'updated', 'created']);
		const stored = await h.sandbox.admin.records('contacts');
		expect(stored.map((contact) => [contact.first_name, contact.email])).toEqual([
			['Ada L.', 'ada@example.com'],
			['Bob', 'bob@example.com'],
		]);
	});

	it('a contact it creates comes out as the fields sent under the ERP\'s short answer, with no read back', async () => {
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com', company: 'AE' }, {}, 'upsert'));
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([
			{ id: stored.id, first_name: 'Ada', created_at: stored.created_at, email: 'ada@example.com', company: 'AE', action: 'created' },
		]);
		expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /contacts', 'POST /contacts']);
	});

	it('a contact it updates comes out as the whole record sent under the ERP\'s answer, even a short one', async () => {
		await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }));
		const [before] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({
			match: { method: 'PUT', path: '/contacts' },
			fault: { kind: 'status', status: 200, body: { success: true, data: { id: before.id, updated_at: '2026-11-02T00:00:00Z' } }, afterCommit: true },
		});
		await h.mark();
		const result = await h.run(createWith('contact', { email: 'ada@example.com', company: 'Initech' }, {}, 'upsert'));
		const put = (await h.requests()).find((r) => r.method === 'PUT');
		const sent = { first_name: 'Ada', last_name: null, email: 'ada@example.com', phone: null, company: 'Initech', notes: null, custom_fields: {} };
		expect(put?.body).toEqual(sent);
		expect(jsonOf(result)).toEqual([{ id: before.id, ...sent, updated_at: '2026-11-02T00:00:00Z', action: 'updated' }]);
	});

	it('with Fetch Full Record, a contact it creates comes out whole, beside what happened', async () => {
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com', company: 'AE' }, { options: { fetchFullRecord: true } }, 'upsert'));
		const [stored] = await h.sandbox.admin.records('contacts');
		expect(jsonOf(result)).toEqual([{ ...stored, action: 'created' }]);
		expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /contacts', 'POST /contacts', `GET /contacts/${stored.id}`]);
	});

	it('several records with the key: an error item naming their IDs, and nothing written', async () => {
		for (const first_name of ['Ada', 'Ada twin']) await h.run(createWith('contact', { first_name, email: 'ada@example.com' }));
		const ids = (await h.sandbox.admin.records('contacts')).map((contact) => contact.id);
		await h.mark();
		const result = await h.run(createWith('contact', { first_name: 'Ada', email: 'ada@example.com' }, {}, 'upsert'), { continueOnFail: true });
		expect(jsonOf(result)).toEqual([
			expect.objectContaining({ error: `2 contacts have the email "ada@example.com" (IDs ${ids.join(', ')}): nothing was written` }),
		]);
		expect((await h.requests()).map((r) => r.method)).toEqual(['GET']);
	});

	it('an item without the key is refused by name before anything is sent', async () => {
		const result = await h.run(upsertContacts(), { input: [{ first_name: 'Ada' }] });
		expect(result.error?.message).toBe('The email field is empty: it is how an existing contact is found');
		expect(await h.requests()).toEqual([]);
	});

	it('a product by SKU: created, then updated with only the fields given (the stock total is not sent)', async () => {
		const upsert = (value: object) => createWith('product', value as never, {}, 'upsert');
		const created = await h.run(upsert({ sku: 'CHAIR-OAK-01', name: 'Oak chair', unit_price: 149.9 }));
		expect(jsonOf(created)).toEqual([expect.objectContaining({ sku: 'CHAIR-OAK-01', action: 'created' })]);
		const [before] = await h.sandbox.admin.records('products');
		await h.mark();
		const updated = await h.run(upsert({ sku: 'CHAIR-OAK-01', unit_price: 139 }));
		const [after] = await h.sandbox.admin.records('products');
		expect(after).toEqual({ ...before, unit_price: 139, updated_at: after.updated_at });
		expect(jsonOf(updated)).toEqual([{ ...after, action: 'updated' }]);
		const put = (await h.requests()).find((r) => r.method === 'PUT');
		expect(put?.body).not.toHaveProperty('stock_total');
	});

	it('an employee by e-mail: created once, then output as it is, marked existing (the API has no employee update)', async () => {
		const hire = createWith('employee', { first_name: 'Lin', last_name: 'Chen', email: 'lin@example.com' }, {}, 'createIfNew');
		const first = await h.run(hire);
		expect(jsonOf(first)).toEqual([expect.objectContaining({ email: 'lin@example.com', action: 'created' })]);
		await h.mark();
		const again = await h.run(hire);
		const [stored] = await h.sandbox.admin.records('employees');
		expect(jsonOf(again)).toEqual([{ ...stored, action: 'existing' }]);
		expect((await h.requests()).map((r) => r.method)).toEqual(['GET']);
		expect(await h.sandbox.admin.records('employees')).toHaveLength(1);
	});
});
