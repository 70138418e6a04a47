import type { TestSandbox } from '../../support/sandbox';
import { startTestSandbox } from '../../support/sandbox';
import type { ProbeCall } from './fixtures/ErpTransportProbe.node';
import { runProbe } from './probe';

const ada = { first_name: 'Ada', email: 'ada@example.com' };
const createAda: ProbeCall = { request: { method: 'POST', path: '/contacts', body: ada, expect: 'record' }, lookupByEmail: true };

describe('an unclear POST failure, resolved by a lookup in the ERP (real n8n, real HTTP, the sandbox)', () => {
	let sandbox: TestSandbox;
	beforeAll(async () => {
		sandbox = await startTestSandbox();
	});
	afterAll(async () => await sandbox.close());
	beforeEach(async () => await sandbox.admin.reset());

	const run = async (options = {}) => await runProbe({ baseUrl: sandbox.baseUrl, apiToken: sandbox.token, calls: [createAda], options });
	const posts = async () => (await sandbox.admin.requests()).filter((r) => r.method === 'POST').map((r) => r.status);

	it('found: a 500 after the ERP saved the contact ends in that contact, marked recovered, with one POST', async () => {
		await sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await run();
		expect(result.error).toBeUndefined();
		const [contact] = await sandbox.admin.records('contacts');
		expect(result.items.map((item) => item.json)).toEqual([{ statusCode: 200, data: expect.objectContaining({ id: contact.id, email: ada.email }), recovered: true }]);
		expect(await posts()).toEqual([500]);
	});

	it.each([
		['a 502 HTML page', { kind: 'html' as const, status: 502, afterCommit: false }, 502],
		['a dropped connection', { kind: 'drop' as const, afterCommit: false }, null],
	])('absent: after %s that wrote nothing, the POST is sent exactly once more', async (_what, fault, status) => {
		await sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault });
		const result = await run();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ statusCode: 201, recovered: false });
		expect(await posts()).toEqual([status, 201]);
		expect(await sandbox.admin.records('contacts')).toHaveLength(1);
	});

	it('absent every time: stops at Max Retries and says running the item again is safe', async () => {
		await sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 503, afterCommit: false }, times: 2 });
		const result = await run({ maxRetries: 1 });
		expect(result.error).toMatchObject({ message: 'The ERP failed with a server error (503) after 1 retry' });
		expect((result.error as { description?: string }).description).toMatch(/nothing was written, so running this item again is safe/);
		expect(await posts()).toEqual([503, 503]);
		expect(await sandbox.admin.records('contacts')).toHaveLength(0);
	});

	it('unknown: when the lookup cannot tell (two contacts match), one POST and "the ERP may have done it"', async () => {
		await sandbox.api.post('/contacts', ada);
		await sandbox.api.post('/contacts', ada);
		await sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await run();
		expect(result.error).toMatchObject({ message: 'The ERP failed with a server error (500)' });
		expect((result.error as { description?: string }).description).toMatch(/may have done it anyway/);
		expect(await posts()).toEqual([201, 201, 500]);
		expect(await sandbox.admin.records('contacts')).toHaveLength(3);
	});
});
