import { useErpHarness, byId } from './setup';

const h = useErpHarness({ contacts: 2 });

const WRONG_TOKEN = 'tok_wrong_0f9e8d7c6b5a';

describe('credentials and access', () => {
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
		const write = await h.run(
			{ resource: 'contact', operation: 'update', contactId: byId(contact.id), updateFields: { company: 'X' } },
			{ token: h.sandbox.readOnlyToken },
		);
		expect(write.error?.message).toBe(`The API token is not allowed to update contact ${contact.id} (403)`);
		expect(JSON.stringify(write)).not.toContain(h.sandbox.readOnlyToken);
		expect((await h.sandbox.admin.records('contacts'))[0]).toEqual(contact);
	});

	it('a Base URL with a path typo: points at the Base URL', async () => {
		const result = await h.run(
			{ resource: 'contact', operation: 'getAll', returnAll: true },
			{ baseUrl: h.sandbox.baseUrl.replace('/api/v1', '/api/vl') },
		);
		expect(result.error?.message).toMatch(/^Nothing answers at http:\/\/127\.0\.0\.1:\d+\/api\/vl\/contacts \(404\)$/);
		expect((result.error as { description?: string }).description).toMatch(/must end with \/api\/v1/);
	});

	it('a Base URL with a trailing slash works', async () => {
		const result = await h.run({ resource: 'contact', operation: 'getAll', returnAll: true }, { baseUrl: `${h.sandbox.baseUrl}/` });
		expect(result.items).toHaveLength(2);
		expect((await h.requests()).map((r) => r.path)).toEqual(['/contacts']);
	});
});
