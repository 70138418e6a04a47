import { useErpHarness, byId, fromList, jsonOf } from './setup';

const h = useErpHarness();

describe('Contact', () => {
	it('creates a contact with the known, additional, custom and extra fields', async () => {
		const result = await h.run({
			resource: 'contact',
			operation: 'create',
			firstName: 'Ada',
			lastName: 'Lovelace',
			email: 'ada@example.com',
			phone: '+44 20 7946 0958',
			company: 'Analytical Engines Ltd',
			additionalFields: {
				notes: 'Met at the fair',
				customFields: { field: [{ name: 'vat_number', value: 'GB123' }] },
				extraFields: '{"custom_fields": {"tier": "gold"}, "first_name": "ignored"}',
			},
		});
		expect(result.error).toBeUndefined();
		const [created] = await h.sandbox.admin.records('contacts');
		expect(created).toMatchObject({
			first_name: 'Ada',
			last_name: 'Lovelace',
			email: 'ada@example.com',
			phone: '+44 20 7946 0958',
			company: 'Analytical Engines Ltd',
			notes: 'Met at the fair',
			custom_fields: { tier: 'gold', vat_number: 'GB123' },
		});
		// The document's create answer: id, first_name, created_at only.
		expect(jsonOf(result)).toEqual([{ id: created.id, first_name: 'Ada', created_at: created.created_at }]);
		const log = await h.requests();
		expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /contacts 201']);
	});

	const createGraceWithFullRecord = {
		resource: 'contact',
		operation: 'create',
		firstName: 'Grace',
		email: 'grace@example.com',
		options: { fetchFullRecord: true },
	};

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
				created_at: stored.created_at,
				fullRecordError: expect.stringMatching(/^Created, but reading the full contact failed: .*403/),
			},
		]);
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'GET 403']);
	});

	it.each([
		[{ email: 'ada-at-example.com' }, 'Email "ada-at-example.com" is not a valid e-mail address: use the form name@example.com'],
		[{ phone: '030 1234567' }, 'Phone "030 1234567" is not in international format: start with + and the country code, e.g. +49 30 1234567'],
		[{ firstName: '  ' }, 'First Name is required: enter a value'],
		[{ additionalFields: { extraFields: '{first_name: Ada}' } }, /^Extra Fields \(JSON\) is not valid JSON/],
		[{ additionalFields: { extraFields: '[1, 2]' } }, 'Extra Fields (JSON) must be a JSON object such as {"tags": ["vip"]}'],
	])('refuses bad input %j before sending anything', async (override, message) => {
		const result = await h.run({ resource: 'contact', operation: 'create', firstName: 'Ada', ...override });
		expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
		expect((result.error as { name?: string }).name).toBe('NodeOperationError');
		expect(await h.requests()).toEqual([]);
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

	it('updates only the fields given, and refuses an empty update without a request', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [before] = await h.sandbox.admin.records('contacts');
		await h.mark();
		const result = await h.run({
			resource: 'contact',
			operation: 'update',
			contactId: byId(before.id),
			updateFields: { company: 'Initech', phone: '+1 212 555 0100' },
		});
		const [after] = await h.sandbox.admin.records('contacts');
		expect(after).toMatchObject({ ...before, company: 'Initech', phone: '+1 212 555 0100', updated_at: after.updated_at });
		expect(jsonOf(result)).toEqual([after]);
		expect((await h.requests()).map((r) => r.body)).toEqual([{ company: 'Initech', phone: '+1 212 555 0100' }]);

		await h.mark();
		const empty = await h.run({ resource: 'contact', operation: 'update', contactId: byId(before.id), updateFields: {} });
		expect(empty.error?.message).toBe('Update Fields is empty: add at least one field to change');
		expect(await h.requests()).toEqual([]);
	});

	it('deletes a contact', async () => {
		await h.sandbox.admin.seed({ contacts: 2 });
		const [first, second] = await h.sandbox.admin.records('contacts');
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(first.id) });
		expect(jsonOf(result)).toEqual([{ id: first.id, deleted: true }]);
		expect((await h.sandbox.admin.records('contacts')).map((c) => c.id)).toEqual([second.id]);
	});

	it('outputs {id, deleted} when the ERP answers 204 without a body', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'DELETE', path: '/contacts' }, fault: { kind: 'status', status: 204, body: 'empty', afterCommit: true } });
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([{ id: contact.id, deleted: true }]);
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
		const latencyMs = 200;
		await h.sandbox.admin.setFaults({ latencyMs });
		await h.mark();
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true, options: { concurrency: 4 } });
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)).toEqual(stored);
		const log = await h.requests();
		expect(log.map((r) => Number(r.query.page)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		// Each request was on the wire from its arrival for at least latencyMs: the most that overlap is what ran at once.
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
