import type { Contact } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { waitForExecutions } from '../../tooling/host/executions';
import { fieldsParameter } from '../../tooling/host/fields';
import { runErp } from '../../tooling/host/runErp';
import { byId } from '../../tooling/host/workflows';
import { useSession } from './setup/session';
import { readOnlyCredential } from './support';

describe('ERP node errors, as n8n shows them in the execution', () => {
	const session = useSession();

	const failedExecution = async (workflowId: string) => {
		const [execution] = await waitForExecutions(session.n8n, workflowId);
		return { status: execution.status, error: execution.data?.resultData.error };
	};

	test('a wrong token: the execution fails with "check the API Token", after one request', async () => {
		const [contact] = await session.sandbox.records('contacts');
		const run = await runErp(
			session,
			{ resource: 'contact', operation: 'get', contactId: byId(contact.id) },
			{ credential: session.ctx.credentials.wrongToken },
		);

		expect(run.status).toBe(500);
		expect(run.requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.auth}`)).toEqual([`GET /contacts/${contact.id} 401 invalid`]);
		const { status, error } = await failedExecution(run.workflowId);
		expect(status).toBe('error');
		expect(error?.message).toBe('The ERP rejected the API token (401)');
		expect(error?.description).toMatch(/^Check the API Token in the ERP API credential/);
		expect(error?.node?.name).toBe('ERP');
	});

	test('an unknown record: "was not found (404)" names the record; with Continue On Fail the failing item becomes an error item, the run succeeds', async () => {
		const run = await runErp(session, { resource: 'invoice', operation: 'get', invoiceId: byId(999999) });
		const continued = await runErp(session, { resource: 'contact', operation: 'get', contactId: byId(888888) }, { onError: 'continueRegularOutput' });

		expect(run.requests.map((r) => `${r.path} ${r.status}`)).toEqual(['/invoices/999999 404']);
		expect((await failedExecution(run.workflowId)).error?.message).toBe('Invoice 999999 was not found (404)');
		expect(continued.status).toBe(200);
		expect(continued.items).toEqual([expect.objectContaining({ error: 'Contact 888888 was not found (404)', httpCode: '404' })]);
	});

	test('a rule the ERP enforces (unique employee e-mail): the field and its message, nothing created', async () => {
		const [employee] = await session.sandbox.records('employees');
		const before = (await session.sandbox.records('employees')).length;
		const run = await runErp(session, {
			resource: 'employee',
			operation: 'create',
			columns: fieldsParameter('employee', { first_name: 'Second', last_name: 'Person', email: employee.email }),
		});

		expect(run.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /employees 422']);
		expect(await session.sandbox.records('employees')).toHaveLength(before);
		const { error } = await failedExecution(run.workflowId);
		expect(error?.message).toMatch(/^The ERP refused to create .*\(422\): email: is already taken/);
	});

	test('a read-only token cannot write: "not allowed" and the contact is unchanged', async () => {
		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Unchanged' });
		const update = { resource: 'contact', operation: 'update', contactId: byId(id), updateFields: { company: 'Changed' } };
		const run = await runErp(session, update, { credential: await readOnlyCredential(session) });

		// Update reads the contact first (allowed), then writes it whole (refused).
		expect(run.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /contacts/${id} 200`, `PUT /contacts/${id} 403`]);
		expect((await session.sandbox.record('contacts', id))?.company).toBeNull();
		const { error } = await failedExecution(run.workflowId);
		expect(error?.message).toBe('The API token is not allowed to update contact ' + id + ' (403)');
	});
});
