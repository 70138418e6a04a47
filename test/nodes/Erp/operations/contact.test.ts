import { useErpHarness, byId, createWith, fromList, jsonOf } from './setup';

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
