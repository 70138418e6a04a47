import { freePort } from '../../../tooling/host/ports';
import { fieldsParameter } from '../../../tooling/host/fields';
import { byId } from '../../../tooling/host/workflows';
import type { NodeCase } from './nodeCase';

const getContact = { resource: 'contact', operation: 'get', contactId: byId('1') };
const createContact = { resource: 'contact', operation: 'create', columns: fieldsParameter('contact', { first_name: 'Ada', email: 'ada@reliability.example' }) };
const baseUrlFix = /start it with https:\/\/|must start with http:\/\/ or https:\/\//;

/** Credentials, addresses and answers of the ERP the node must explain: Base URL, tokens, the ERP's own refusals. */
export const ACCESS_CASES: NodeCase[] = [
	{ id: 'base-url-no-scheme', title: 'Base URL without scheme: 127.0.0.1:PORT/api/v1', parameters: getContact, credential: { baseUrl: (url) => `${url.replace(/^https?:\/\//, '')}/api/v1` }, expect: { field: /Base URL/, fix: baseUrlFix, requests: [] } },
	{ id: 'base-url-host-no-scheme', title: 'Base URL without scheme: erp.example.com/api/v1', parameters: createContact, credential: { baseUrl: () => 'erp.example.com/api/v1' }, expect: { field: /Base URL/, fix: baseUrlFix, requests: [] } },
	{ id: 'base-url-localhost-no-scheme', title: 'Base URL without scheme: localhost:PORT/api/v1 (reads as a scheme "localhost:")', parameters: getContact, credential: { baseUrl: (url) => `${url.replace(/^https?:\/\/127\.0\.0\.1/, 'localhost')}/api/v1` }, expect: { field: /Base URL/, fix: baseUrlFix, requests: [] } },
	{ id: 'base-url-path-typo', title: 'Base URL with a typo in the path: …/api/vl', parameters: createContact, credential: { baseUrl: (url) => `${url}/api/vl` }, expect: { field: /Base URL/, fix: /must end with \/api\/v1/, requests: [] } },
	{ id: 'base-url-path-typo-by-id', title: 'Base URL with a typo in the path (…/api/vl), reading contact 1', parameters: getContact, credential: { baseUrl: (url) => `${url}/api/vl` }, expect: { field: /Base URL/, fix: /does not end with \/api\/v1/, requests: [] } },
	{ id: 'base-url-nothing-listening', title: 'Base URL on a port where nothing listens (Max Retries 1)', parameters: { ...getContact, options: { maxRetries: 1 } }, credential: { baseUrl: async () => `http://127.0.0.1:${await freePort()}/api/v1` }, expect: { field: /Base URL/, fix: /ERP is running/, requests: [] } },
	{ id: 'token-wrong-read', title: 'Wrong or expired token (401), reading contact 1', parameters: getContact, credential: 'wrongToken', expect: { field: /API Token/, fix: /Check the API Token in the ERP API credential/, requests: ['GET /contacts/1 401'] } },
	{ id: 'token-wrong-create', title: 'Wrong or expired token (401), creating a contact', parameters: createContact, credential: 'wrongToken', expect: { field: /API Token/, fix: /Check the API Token in the ERP API credential/, requests: ['POST /contacts 401'] } },
	{
		id: 'token-expired-echoed',
		title: 'The ERP answers 401 "Token <the token> has expired", echoing the token',
		parameters: getContact,
		prepare: async (session) => {
			await session.sandbox.queueFault({
				match: { method: 'GET', path: '/contacts' },
				fault: { kind: 'status', status: 401, body: { error: { code: 'token_expired', message: `Token ${session.ctx.token} has expired` } } },
			});
		},
		expect: { field: /API Token/, fix: /Check the API Token in the ERP API credential/, requests: ['GET /contacts/1 401'] },
	},
	{ id: 'read-only-create', title: 'Read-only token creating a contact (403)', parameters: createContact, credential: 'readOnly', expect: { field: /API token/, fix: /token with write access/, requests: ['POST /contacts 403'] } },
	{ id: 'read-only-update', title: 'Read-only token updating contact 1 (403)', parameters: { resource: 'contact', operation: 'update', contactId: byId('1'), updateFields: { company: 'Changed' } }, credential: 'readOnly', expect: { field: /API token/, fix: /token with write access/, requests: ['GET /contacts/1 200', 'PUT /contacts/1 403'] } },
	{ id: 'read-only-delete', title: 'Read-only token deleting contact 1 (403)', parameters: { resource: 'contact', operation: 'delete', contactId: byId('1') }, credential: 'readOnly', expect: { field: /API token/, fix: /token with write access/, requests: ['DELETE /contacts/1 403'] } },
	{ id: 'read-only-mark-paid', title: 'Read-only token marking invoice 2 paid (403)', parameters: { resource: 'invoice', operation: 'markPaid', invoiceId: byId('2') }, credential: 'readOnly', expect: { field: /API token/, fix: /token with write access/, requests: ['POST /invoices/2/mark-paid 403'] } },
	{ id: 'id-unknown', title: 'Contact ID 9007199254740991 (valid, but no such contact)', parameters: { resource: 'contact', operation: 'get', contactId: byId('9007199254740991') }, expect: { field: /Contact 9007199254740991/, fix: /Check the ID/, requests: ['GET /contacts/9007199254740991 404'] } },
	{ id: 'invoice-unknown-contact', title: 'Invoice for contact 424242, which does not exist (the ERP answers 422)', parameters: { resource: 'invoice', operation: 'create', contactId: byId('424242'), lineItems: { line: [{ description: 'Work', unitPrice: 100 }] } }, expect: { field: /contact_id/, fix: /Fix this field/, requests: ['POST /invoices 422'] } },
	{ id: 'employee-email-taken', title: 'Employee with the e-mail of employee 1 (the ERP answers 422)', parameters: { resource: 'employee', operation: 'create', columns: fieldsParameter('employee', { first_name: 'Second', last_name: 'Person', email: '={{ $json.body.email }}' }) }, prepare: async (session) => ({ email: (await session.sandbox.record('employees', 1))?.email }), expect: { field: /email/, fix: /Fix this field/, requests: ['POST /employees 422'] } },
];
