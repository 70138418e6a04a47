import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { probeOn } from './probe';

const refused = { success: false, error: { code: 'plan_limit', message: 'Contact limit of your plan reached' } };

describe('the envelope on the wire (real n8n, the sandbox answering with queued bodies)', () => {
	const sandbox = useTestSandbox();
	const probe = probeOn(sandbox);
	const admin = () => sandbox.admin;

	const run = async (method: 'GET' | 'POST', path: string, action: string) =>
		await probe({
			calls: [{ request: { method, path, doing: { action, noun: 'contact' }, body: method === 'POST' ? { first_name: 'Ada' } : undefined, expect: 'record' } }],
		});

	it.each([
		['GET', '/contacts/1', 200, 'read contact 1'],
		['POST', '/contacts', 201, 'create the contact'],
	] as const)('takes `success: false` on %s %s answered %i as an error with the ERP message and code', async (method, path, status, refusedTo) => {
		await admin().queueFault({ match: { method, path }, fault: { kind: 'status', status, body: refused } });
		const result = await run(method, path, refusedTo);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `The ERP refused to ${refusedTo}: Contact limit of your plan reached (error code plan_limit)`,
			httpCode: String(status),
		});
		expect(await admin().requests()).toHaveLength(1);
	});

	it('says a create answered 201 without the contact was probably done, and does not send it again', async () => {
		await admin().queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'status', status: 201, body: { success: true }, afterCommit: true } });
		const result = await run('POST', '/contacts', 'create the contact');
		expect(result.error).toMatchObject({ message: 'The ERP answered success but sent no contact' });
		expect((result.error as { description?: string }).description).toMatch(/^The contact was probably created/);
		expect(await admin().records('contacts')).toHaveLength(1);
		expect(await admin().requests()).toHaveLength(1);
	});
});
