import { waitFor } from '../../../../tooling/harness/sandbox';
import { useErpHarness, byId, createWith, jsonOf } from './setup';

/** Create Contact from each input item's first and email. */
const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });

describe('credentials and access', () => {
	const h = useErpHarness({ contacts: 2 });

	const WRONG_TOKEN = 'tok_wrong_0f9e8d7c6b5a';

	it('a wrong token: says to check the API token, and never shows it', async () => {
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true }, { token: WRONG_TOKEN });
		expect(result.error?.message).toBe('The ERP rejected the API token (401)');
		expect((result.error as { description?: string }).description).toMatch(/^Check the API Token in the ERP API credential/);
		expect(JSON.stringify(result)).not.toContain(WRONG_TOKEN);
		expect((await h.requests()).map((r) => r.auth)).toEqual(['invalid']);
	});

	it('a read-only token reads, and a write with it says what it may not do', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		const read = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) }, { token: h.sandbox.readOnlyToken });
		expect(read.error).toBeUndefined();
		const write = await h.run({ resource: 'contact', operation: 'update', contactId: byId(contact.id), updateFields: { company: 'X' } }, { token: h.sandbox.readOnlyToken });
		expect(write.error?.message).toBe(`The API token is not allowed to update contact ${contact.id} (403)`);
		expect(JSON.stringify(write)).not.toContain(h.sandbox.readOnlyToken);
		expect((await h.sandbox.admin.records('contacts'))[0]).toEqual(contact);
	});
});

describe('the item loop', () => {
	const h = useErpHarness();
	/** Three items, the second one with an e-mail the node refuses before any request. */
	const SECOND_INVALID = [
		{ first: 'Ada', email: 'ada@example.com' },
		{ first: 'Bob', email: 'not-an-email' },
		{ first: 'Cy', email: 'cy@example.com' },
	];

	it('with Continue On Fail, turns a failed item into an error item paired with it', async () => {
		const result = await h.run(create, { continueOnFail: true, input: SECOND_INVALID });
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[1].json).toEqual({ error: 'Field email "not-an-email" is not a valid e-mail address: use the form name@example.com' });
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com', 'cy@example.com']);
	});

	it('carries the API error into the error item', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 422, body: { errors: { email: ['is blocked'] } } } });
		const result = await h.run(create, { continueOnFail: true, input: [{ first: 'Ada', email: 'ada@example.com' }] });
		const error = 'The ERP refused to create the contact (422): email: is blocked';
		expect(jsonOf(result)).toEqual([{ error, description: 'Nothing was saved. Fix this field and try again: email: is blocked.', httpCode: '422' }]);
	});

	it('without Continue On Fail and with Concurrency 1, stops at the failing item and names it', async () => {
		const result = await h.run({ ...create, options: { concurrency: 1 } }, { input: SECOND_INVALID });
		expect(result.error?.message).toMatch(/^Field email "not-an-email"/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com']);
	});

	it('without Continue On Fail and at the default Concurrency (5), lets the items already started finish and starts no other', async () => {
		const input = Array.from({ length: 12 }, (_, i) => ({ first: `P${i}`, email: i === 1 ? 'not-an-email' : `p${i}@example.com` }));
		const result = await h.run(create, { input });
		expect(result.error?.message).toMatch(/^Field email "not-an-email"/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		// Items 0–4 start together; item 1 fails before anything is sent, so item 5 may take its place, and no later one.
		const created = (await h.sandbox.admin.records('contacts')).map((c) => c.email as string);
		expect(created).toEqual(expect.arrayContaining(['p0@example.com', 'p2@example.com', 'p3@example.com', 'p4@example.com']));
		expect(created.filter((email) => !['p0', 'p2', 'p3', 'p4', 'p5'].includes(email.split('@')[0]))).toEqual([]);
	});

	it('keeps output order and pairing with Concurrency above 1', async () => {
		const input = Array.from({ length: 12 }, (_, i) => ({ first: `P${i}`, email: `p${i}@example.com` }));
		const result = await h.run({ ...create, options: { concurrency: 4 } }, { input });
		expect(result.items.map((item) => item.json.first_name)).toEqual(input.map((row) => row.first));
		expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(12);
	});

	it('takes Max Retries up to 30 and names the range above it, before any request', async () => {
		const ok = await h.run({ ...create, options: { maxRetries: 30 } }, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(ok.error).toBeUndefined();
		const refused = await h.run({ ...create, options: { maxRetries: 31 } }, { input: [{ first: 'Bo', email: 'bo@example.com' }] });
		expect(refused.error?.message).toMatch(/Max Retries must be a whole number from 0 to 30, not 31/);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com']);
	});

	it('yields an error item for every item when the credential is unusable', async () => {
		const input = [{ first: 'A', email: 'a@example.com' }, { first: 'B', email: 'b@example.com' }];
		const result = await h.run(create, { continueOnFail: true, baseUrl: 'erp.example.com/api/v1', input });
		expect(jsonOf(result)).toEqual(Array(2).fill({ error: expect.stringMatching(/^The Base URL "erp.example.com\/api\/v1" is not a web address/) }));
		expect(await h.requests()).toEqual([]);
	});

	it('a slow answer past the timeout: one POST, and the error says how long it waited', async () => {
		const posts = async () => (await h.requests()).filter((r) => r.method === 'POST');
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'latency', delayMs: 800 } });
		const result = await h.run({ ...create, options: { timeout: 300 } }, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(result.error?.message).toBe('The ERP did not answer within 0.3 s');
		// The sandbox logs the slow request once it has answered it, after the node gave up.
		await waitFor(async () => (await posts()).length > 0);
		expect(await posts()).toHaveLength(1);
	});
});
