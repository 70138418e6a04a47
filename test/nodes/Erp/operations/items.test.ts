import { createWith, jsonOf, useErpHarness } from './setup';

const h = useErpHarness();

const createFromFields = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });

describe('the item loop', () => {
	it('with Continue On Fail, turns a failed item into an error item paired with it', async () => {
		const result = await h.run(createFromFields, {
			continueOnFail: true,
			input: [
				{ first: 'Ada', email: 'ada@example.com' },
				{ first: 'Bob', email: 'not-an-email' },
				{ first: 'Cy', email: 'cy@example.com' },
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(result.items[1].json).toEqual({
			error: 'Field email "not-an-email" is not a valid e-mail address: use the form name@example.com',
		});
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com', 'cy@example.com']);
	});

	it('carries the API error into the error item', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 422, body: { errors: { email: ['is blocked'] } } } });
		const result = await h.run(createFromFields, { continueOnFail: true, input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(jsonOf(result)).toEqual([
			{
				error: 'The ERP refused to create the contact (422): email: is blocked',
				description: 'Nothing was saved. Fix this field and try again: email: is blocked.',
				httpCode: '422',
			},
		]);
	});

	it('without Continue On Fail and with Concurrency 1, stops at the failing item and names it', async () => {
		const result = await h.run({ ...createFromFields, options: { concurrency: 1 } }, {
			input: [
				{ first: 'Ada', email: 'ada@example.com' },
				{ first: 'Bob', email: 'not-an-email' },
				{ first: 'Cy', email: 'cy@example.com' },
			],
		});
		expect(result.error?.message).toMatch(/^Field email "not-an-email"/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com']);
	});

	it('without Continue On Fail and at the default Concurrency (5), lets the items already started finish and starts no other', async () => {
		const input = Array.from({ length: 12 }, (_, i) => ({ first: `P${i}`, email: i === 1 ? 'not-an-email' : `p${i}@example.com` }));
		const result = await h.run(createFromFields, { input });
		expect(result.error?.message).toMatch(/^Field email "not-an-email"/);
		expect((result.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(1);
		// Items 0–4 start together; item 1 fails before anything is sent, so item 5 may take its place, and no later one.
		const created = (await h.sandbox.admin.records('contacts')).map((c) => c.email as string);
		expect(created).toEqual(expect.arrayContaining(['p0@example.com', 'p2@example.com', 'p3@example.com', 'p4@example.com']));
		expect(created.filter((email) => !['p0', 'p2', 'p3', 'p4', 'p5'].includes(email.split('@')[0]))).toEqual([]);
	});

	it('keeps output order and pairing with Concurrency above 1', async () => {
		const input = Array.from({ length: 12 }, (_, i) => ({ first: `P${i}`, email: `p${i}@example.com` }));
		const result = await h.run({ ...createFromFields, options: { concurrency: 4 } }, { input });
		expect(result.items.map((item) => item.json.first_name)).toEqual(input.map((row) => row.first));
		expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(12);
	});

	it('takes Max Retries up to 30 and names the range above it, before any request', async () => {
		const ok = await h.run({ ...createFromFields, options: { maxRetries: 30 } }, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(ok.error).toBeUndefined();
		const refused = await h.run({ ...createFromFields, options: { maxRetries: 31 } }, { input: [{ first: 'Bo', email: 'bo@example.com' }] });
		expect(refused.error?.message).toMatch(/Max Retries must be a whole number from 0 to 30, not 31/);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.email)).toEqual(['ada@example.com']);
	});

	it('yields an error item for every item when the credential is unusable', async () => {
		const result = await h.run(createFromFields, {
			continueOnFail: true,
			baseUrl: 'erp.example.com/api/v1',
			input: [{ first: 'A', email: 'a@example.com' }, { first: 'B', email: 'b@example.com' }],
		});
		expect(jsonOf(result)).toEqual([
			{ error: expect.stringMatching(/^The Base URL "erp.example.com\/api\/v1" is not a web address/) },
			{ error: expect.stringMatching(/^The Base URL "erp.example.com\/api\/v1" is not a web address/) },
		]);
		expect(await h.requests()).toEqual([]);
	});
});
