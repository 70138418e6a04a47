import { waitFor } from '../../../../tooling/harness/sandbox';
import type { ProbeCall } from './fixtures/ErpTransportProbe.node';
import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { probeOn } from './probe';

const ada = { first_name: 'Ada', email: 'ada@example.com' };
const createAda: ProbeCall = { request: { method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: ada, expect: 'record' }, lookupByEmail: true };

describe('an unclear POST failure, resolved by a lookup in the ERP (real n8n, real HTTP, the sandbox)', () => {
	const sandbox = useTestSandbox();
	const probe = probeOn(sandbox);
	const admin = () => sandbox.admin;

	const run = async (options = {}) => await probe({ calls: [createAda], options });
	const posts = async () => (await admin().requests()).filter((r) => r.method === 'POST').map((r) => r.status);

	it('found: a 500 after the ERP saved the contact ends in that contact, marked recovered, with one POST', async () => {
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await run();
		expect(result.error).toBeUndefined();
		const [contact] = await admin().records('contacts');
		expect(result.items.map((item) => item.json)).toEqual([{ statusCode: 200, data: expect.objectContaining({ id: contact.id, email: ada.email }), recovered: true }]);
		expect(await posts()).toEqual([500]);
	});

	it.each([
		['a 502 HTML page', { kind: 'html' as const, status: 502, afterCommit: false }, 502],
		['a dropped connection', { kind: 'drop' as const, afterCommit: false }, null],
	])('absent: after %s that wrote nothing, the POST is sent exactly once more', async (_what, fault, status) => {
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault });
		const result = await run();
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ statusCode: 201, recovered: false });
		expect(await posts()).toEqual([status, 201]);
		expect(await admin().records('contacts')).toHaveLength(1);
	});

	it('a slow answer past the timeout: the lookup finds nothing yet, and the POST is not sent again', async () => {
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'latency', delayMs: 1500 } });
		const result = await run({ timeoutMs: 300 });
		expect(result.error).toMatchObject({ message: 'The ERP did not answer within 0.3 s' });
		expect((result.error as { description?: string }).description).toMatch(/may have done it anyway/);
		// The sandbox logs the slow POST once it has answered it, after the node gave up.
		await waitFor(async () => (await posts()).length > 0);
		expect(await posts()).toEqual([201]);
		expect(await admin().records('contacts')).toHaveLength(1);
	});

	it('absent every time: stops at Max Retries and says running the item again is safe', async () => {
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 503, afterCommit: false }, times: 2 });
		const result = await run({ maxRetries: 1 });
		expect(result.error).toMatchObject({ message: 'The ERP failed with a server error (503) after 1 retry' });
		expect((result.error as { description?: string }).description).toMatch(/nothing was written, so running this item again is safe/);
		expect(await posts()).toEqual([503, 503]);
		expect(await admin().records('contacts')).toHaveLength(0);
	});

	it('unknown: when the lookup cannot tell (two contacts match), one POST and "the ERP may have done it"', async () => {
		await sandbox.api.post('/contacts', ada);
		await sandbox.api.post('/contacts', ada);
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await run();
		expect(result.error).toMatchObject({ message: 'The ERP failed with a server error (500)' });
		expect((result.error as { description?: string }).description).toMatch(/may have done it anyway/);
		expect(await posts()).toEqual([201, 201, 500]);
		expect(await admin().records('contacts')).toHaveLength(3);
	});
});
