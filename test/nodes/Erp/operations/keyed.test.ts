import { createFromInput, createWith, jsonOf, useErpHarness } from './setup';

const h = useErpHarness();

const people = (count: number) => Array.from({ length: count }, (_, i) => ({ first_name: `Person${i}`, email: `person${i}@example.com` }));
const actions = (result: Awaited<ReturnType<typeof h.run>>) => jsonOf(result).map((json) => json.action);

describe('Create or Update (contact by e-mail, product by SKU) and Create or Get (employee by e-mail)', () => {
	const upsertContacts = (extra = {}) => createFromInput('contact', { options: { concurrency: 10 }, ...extra }, 'upsert');

	it('the import under 20% 5xx and 10% dropped connections after the ERP saved the contact: every item succeeds, each e-mail POSTed once', async () => {
		// One queued answer per POST, spread over the import: 40 server errors and 20 drops after the save, the rest
		// answered normally (a latency fault of 0 ms). Lookups are not faulted.
		const kinds = Array.from({ length: 200 }, (_, i) => (i % 5 === 1 ? 'status' : i % 10 === 3 ? 'drop' : 'none'));
		for (const kind of kinds) {
			const fault = kind === 'none' ? { kind: 'latency', delayMs: 0 } : { kind, status: 500, afterCommit: true };
			await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: fault as never });
		}

		const result = await h.run(upsertContacts({ options: { concurrency: 10 } }), { input: people(200), continueOnFail: true });
		expect(jsonOf(result).filter((json) => json.error)).toEqual([]);
		expect(actions(result)).toEqual(Array(200).fill('created'));
		expect(jsonOf(result).filter((json) => json.recovered)).toHaveLength(60);

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

	// What it outputs for a record it creates or updates, under the ERP's short answer: versions.test.ts.
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
