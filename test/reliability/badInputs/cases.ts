import { createHmac } from 'node:crypto';

import { byId, erpTriggerNode } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';
import { fieldsParameter } from '../../../tooling/host/fields';
import { freePort } from '../../../tooling/host/ports';
import { erpTriggerType, triggerUrl } from '../../../tooling/host/examples';
import type { Execution, SavedWorkflow } from '../../../tooling/host/types';
import { atLeast, waitForExecutions } from '../../../tooling/host/executions';

/** The expected answer: what the message and description must say, and what may reach the ERP. */
export interface NodeExpectation {
	/** Must match the error message plus description: the field or parameter at fault. */
	field: RegExp;
	/** Must match the error message plus description: what to do about it. */
	fix: RegExp;
	/** Exactly the API requests the sandbox must receive, as `METHOD /path status`; [] when the node must catch it first. */
	requests: string[];
}

/**
 * A hostile node configuration, run in a real workflow (Webhook → ERP, stop on error). Before each case the
 * sandbox holds 3 contacts, invoices, products and employees, each with IDs 1 to 3.
 */
export interface NodeCase {
	id: string;
	title: string;
	parameters: Record<string, unknown>;
	/** The webhook body, read by expressions as `$json.body`. */
	data?: Record<string, unknown>;
	/** Another credential: a stored one, or the full token with this Base URL (given the sandbox's URL). */
	credential?: 'wrongToken' | 'readOnly' | { baseUrl: (sandboxUrl: string) => string | Promise<string> };
	/** Sets up the sandbox just before the run; what it returns, if anything, is the webhook body instead of `data`. */
	prepare?: (session: ReliabilitySession) => Promise<Record<string, unknown> | void>;
	expect: NodeExpectation;
}

export const byIdFromData = byId('={{ $json.body.id }}');

const contact = (operation: string, rest: Record<string, unknown>) => ({ resource: 'contact', operation, ...rest });
const updateContact1 = (updateFields: Record<string, unknown>) => contact('update', { contactId: byId('1'), updateFields });
const newContact = (fields: Record<string, unknown>) => contact('create', { columns: fieldsParameter('contact', { first_name: 'Ada', ...fields }) });
const newEmployee = (fields: Record<string, unknown>) => ({
	resource: 'employee',
	operation: 'create',
	columns: fieldsParameter('employee', { first_name: 'Grace', last_name: 'Hopper', email: 'grace.hopper@reliability.example', ...fields }),
});
const newProduct = (fields: Record<string, unknown>) => ({ resource: 'product', operation: 'create', columns: fieldsParameter('product', { sku: 'CHAIR-1', name: 'Chair', ...fields }) });
const none: string[] = [];
const customCall = (method: string, path: string, rest: Record<string, unknown> = {}) => ({ resource: 'customApiCall', operation: 'call', method, path, ...rest });
// Lengths, ranges, formats and allowed values the API document leaves to the ERP: its 422 names the field.
const erpRefuses = (request: string, field: RegExp) => ({ field, fix: /Fix this field/, requests: [request] });

// n8n checks a typed field of the field mapper itself ("'salary' expects a number but we got 'lots'").
const numberFix = /must be a number|expects a number/;
const idFix = /enter the numeric ID|enter its ID|greater than 0|Pick the record from the list/;

/**
 * Parameters the node must refuse before sending anything (IDs, JSON, e-mail, phone, types, options), and values
 * only the ERP can judge, which must come back as its 422 naming the field.
 */
export const PARAMETER_CASES: NodeCase[] = [
	{ id: 'id-typed-text', title: 'Contact ID typed By ID: "abc"', parameters: contact('get', { contactId: byId('abc') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-typed-zero', title: 'Contact ID typed By ID: 0', parameters: contact('get', { contactId: byId('0') }), expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-typed-decimal', title: 'Contact ID typed By ID: 4.5', parameters: contact('delete', { contactId: byId('4.5') }), expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-decimal', title: 'Contact ID from the data: 12.5', parameters: contact('get', { contactId: byIdFromData }), data: { id: 12.5 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-negative', title: 'Contact ID from the data: -7', parameters: contact('update', { contactId: byIdFromData, updateFields: { company: 'X' } }), data: { id: -7 }, expect: { field: /Contact ID/, fix: /greater than 0/, requests: none } },
	{ id: 'id-data-huge-text', title: 'Contact ID from the data: "123456789012345678901234567890"', parameters: contact('get', { contactId: byIdFromData }), data: { id: '123456789012345678901234567890' }, expect: { field: /Contact ID/, fix: /too large/, requests: none } },
	{ id: 'id-data-huge-number', title: 'Contact ID from the data: the JSON number 1e30', parameters: contact('get', { contactId: byIdFromData }), data: { id: 1e30 }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'id-data-missing', title: 'Contact ID from the data, which has no id', parameters: contact('get', { contactId: byIdFromData }), data: { name: 'no id here' }, expect: { field: /Contact ID/, fix: idFix, requests: none } },
	{ id: 'extra-fields-invalid-json', title: 'Update Fields › Extra Fields (JSON): {first_name: Ada', parameters: updateContact1({ extraFields: '{first_name: Ada' }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as|double quotes|not valid JSON/, requests: none } },
	{ id: 'extra-fields-array', title: 'Update Fields › Extra Fields (JSON): [1, 2]', parameters: updateContact1({ extraFields: '[1, 2]' }), expect: { field: /Extra Fields \(JSON\)/, fix: /JSON object such as/, requests: none } },
	{ id: 'update-empty', title: 'Update with no Update Fields', parameters: contact('update', { contactId: byId('1'), updateFields: {} }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'update-blank-values', title: 'Update whose only field is blank', parameters: contact('update', { contactId: byId('1'), updateFields: { company: '  ' } }), expect: { field: /Update Fields/, fix: /add at least one field/i, requests: none } },
	{ id: 'first-name-empty', title: 'Create contact with an empty first_name (the ERP answers 422)', parameters: newContact({ first_name: '' }), expect: erpRefuses('POST /contacts 422', /first_name/) },
	{ id: 'email-typed-malformed', title: 'Fields › email typed: ada(at)example.com', parameters: newContact({ email: 'ada(at)example.com' }), expect: { field: /email/, fix: /name@example\.com/, requests: none } },
	{ id: 'email-data-malformed', title: 'Fields › email from the data: "ada@"', parameters: newContact({ email: '={{ $json.body.email }}' }), data: { email: 'ada@' }, expect: { field: /email/, fix: /name@example\.com/, requests: none } },
	{ id: 'phone-national-format', title: 'Fields › phone typed: 030 1234567 (no country code)', parameters: newContact({ phone: '030 1234567' }), expect: { field: /phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'phone-data-letters', title: 'Fields › phone from the data: "call me"', parameters: newContact({ phone: '={{ $json.body.phone }}' }), data: { phone: 'call me' }, expect: { field: /phone/, fix: /start with \+ and the country code/, requests: none } },
	{ id: 'salary-text', title: 'Fields › salary: "lots"', parameters: newEmployee({ salary: 'lots' }), expect: { field: /salary/, fix: numberFix, requests: none } },
	{ id: 'salary-data-text', title: 'Fields › salary from the data: "lots"', parameters: newEmployee({ salary: '={{ $json.body.salary }}' }), data: { salary: 'lots' }, expect: { field: /salary/, fix: numberFix, requests: none } },
	{ id: 'salary-negative', title: 'Fields › salary: -5000 (the ERP answers 422)', parameters: newEmployee({ salary: -5000 }), expect: erpRefuses('POST /employees 422', /salary/) },
	{ id: 'hire-date-text', title: 'Fields › hire_date: "next monday"', parameters: newEmployee({ hire_date: 'next monday' }), expect: { field: /hire_date/, fix: /use the form 2026-12-31|expects a dateTime/, requests: none } },
	{ id: 'currency-word', title: 'Fields › currency: "EURO" (the ERP answers 422)', parameters: newEmployee({ currency: 'EURO' }), expect: erpRefuses('POST /employees 422', /currency/) },
	{ id: 'sku-spaces', title: 'Product sku: "CHAIR OAK 01" (the ERP answers 422)', parameters: newProduct({ sku: 'CHAIR OAK 01' }), expect: erpRefuses('POST /products 422', /sku/) },
	{ id: 'threshold-fraction', title: 'Product low_stock_threshold: 2.5 (the ERP answers 422)', parameters: newProduct({ low_stock_threshold: 2.5 }), expect: erpRefuses('POST /products 422', /low_stock_threshold/) },
	{ id: 'invoice-line-negative-price', title: 'Invoice line Unit Price: -10 (the ERP answers 422)', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1'), lineItems: { line: [{ description: 'Work', unitPrice: -10 }] } }, expect: erpRefuses('POST /invoices 422', /unit_price/) },
	{ id: 'invoice-no-lines', title: 'Invoice without lines (the ERP answers 422)', parameters: { resource: 'invoice', operation: 'create', contactId: byId('1') }, expect: erpRefuses('POST /invoices 422', /lines/) },
	{ id: 'custom-field-twice', title: 'Update Fields › Custom Fields with "vat_number" twice', parameters: updateContact1({ customFields: { field: [{ name: 'vat_number', value: 'DE1' }, { name: 'vat_number', value: 'DE2' }] } }), expect: { field: /Custom Fields/, fix: /keep one/, requests: none } },
	{ id: 'filter-date-text', title: 'Filter Created After: "last week"', parameters: contact('getAll', { filters: { createdAfter: 'last week' } }), expect: { field: /Created After/, fix: /use the form 2026-12-31T14:30:00Z/, requests: none } },
	{ id: 'query-parameter-page', title: 'Query Parameters setting "page"', parameters: contact('getAll', { filters: { queryParameters: { parameter: [{ name: 'page', value: '2' }] } } }), expect: { field: /Query Parameters/, fix: /Return All or Limit/, requests: none } },
	{ id: 'custom-call-path-leaves', title: 'Custom API Call Path from the data: "/orders/%2e%2e/contacts"', parameters: customCall('GET', '={{ $json.body.path }}'), data: { path: '/orders/%2e%2e/contacts' }, expect: { field: /Path/, fix: /below the Base URL/, requests: none } },
	{ id: 'custom-call-full-url', title: 'Custom API Call Path: "https://evil.example/api/v1/contacts"', parameters: customCall('GET', 'https://evil.example/api/v1/contacts'), expect: { field: /Path/, fix: /only the part after the Base URL/, requests: none } },
	{ id: 'custom-call-body-not-json', title: 'Custom API Call Body: {reference: SO-1', parameters: customCall('POST', '/contacts', { body: '{reference: SO-1' }), expect: { field: /Body/, fix: /not valid JSON|double quotes/, requests: none } },
	{ id: 'limit-zero', title: 'Limit: 0', parameters: contact('getAll', { returnAll: false, limit: 0 }), expect: { field: /Limit/, fix: /whole number of 1 or more/, requests: none } },
	{ id: 'concurrency-500', title: 'Options › Concurrency: 500', parameters: contact('get', { contactId: byId('1'), options: { concurrency: 500 } }), expect: { field: /Concurrency/, fix: /from 1 to 50/, requests: none } },
	{ id: 'timeout-negative', title: 'Options › Timeout: -1', parameters: contact('get', { contactId: byId('1'), options: { timeout: -1 } }), expect: { field: /Timeout/, fix: /whole number from 1/, requests: none } },
];

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

export type TriggerKind = 'plain' | 'hmac' | 'shared';

export interface TriggerWorkflow {
	kind: TriggerKind;
	workflow: SavedWorkflow;
	url: string;
}

export const SECRET_HEADER = 'X-Erp-Webhook-Secret';

const PARAMETERS: Record<TriggerKind, Record<string, unknown>> = {
	plain: { events: ['contact.created'] },
	hmac: { events: ['*'], verification: 'hmacSha256' },
	shared: { events: ['*'], verification: 'sharedSecret', sharedHeader: SECRET_HEADER },
};

/** An active workflow of one ERP Trigger: unverified (contact.created only), HMAC-signed, or with a shared secret. */
export async function triggerWorkflow(session: ReliabilitySession, kind: TriggerKind): Promise<TriggerWorkflow> {
	const node = erpTriggerNode(PARAMETERS[kind], kind === 'plain' ? undefined : session.ctx.credentials.webhook);
	const workflow = await session.n8n.createActiveWorkflow({ name: `reliability trigger (${kind})`, nodes: [node], connections: {} });
	return { kind, workflow, url: triggerUrl(session.ctx.n8nUrl, node, await erpTriggerType(session.n8n)) };
}

export const hmacHex = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A delivery as the ERP sends it; `marker` goes into its data so that a run it started can be found. */
export function deliveryBody(marker: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	return { event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 1, first_name: 'Ada', marker }, ...overrides };
}

/** Headers that pass the trigger's check, for a delivery of `body`. */
export function validHeaders(trigger: TriggerWorkflow, secret: string, body: string): Record<string, string> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (trigger.kind === 'hmac') headers['x-erp-signature'] = hmacHex(secret, body);
	if (trigger.kind === 'shared') headers[SECRET_HEADER.toLowerCase()] = secret;
	return headers;
}

const SENTINEL = 'sentinel-delivery';

/**
 * Sends one valid delivery and waits until its run is saved: the trigger answered every earlier request
 * before it, so any run one of them started is saved too. Returns all runs of the workflow, with their data.
 */
export async function runsAfterSentinel(session: ReliabilitySession, trigger: TriggerWorkflow): Promise<Execution[]> {
	const body = JSON.stringify(deliveryBody(SENTINEL));
	const response = await fetch(trigger.url, { method: 'POST', headers: validHeaders(trigger, session.ctx.webhookSecret, body), body });
	if (response.status !== 200) throw new Error(`the ${trigger.kind} trigger refused a valid delivery: ${response.status} ${await response.text()}`);
	return await waitForExecutions(session.n8n, trigger.workflow.id, atLeast(1, (run) => JSON.stringify(run.data).includes(SENTINEL)), 60_000);
}

/** Runs that neither the sentinel nor any of the given markers started. */
export const unattributedRuns = (runs: Execution[], markers: string[]) =>
	runs.filter((run) => ![SENTINEL, ...markers].some((marker) => JSON.stringify(run.data).includes(marker))).length;

export interface TriggerRequest {
	method: 'GET' | 'POST';
	headers: Record<string, string>;
	body?: string;
}

/**
 * A hostile or unusual delivery to an active ERP Trigger. `request` builds it from the case's marker (put where a
 * run it started would show it) and the trigger's real secret.
 */
export interface TriggerCase {
	id: string;
	title: string;
	trigger: TriggerKind;
	request: (marker: string, secret: string) => TriggerRequest;
	/**
	 * `fix` null: only for an answer n8n gives itself before the trigger runs, which names the problem but no fix.
	 * `started`: a real delivery, whose run must start; otherwise no run may start.
	 */
	expect: { status: number; field: RegExp; fix: RegExp | null; started?: true };
	/** 'n8n': n8n answers this request itself before the trigger runs; the answer is n8n's, not the package's. */
	answeredBy?: 'n8n';
}

const JSON_TYPE = { 'content-type': 'application/json' };
const post = (body: string, headers: Record<string, string> = JSON_TYPE): TriggerRequest => ({ method: 'POST', headers, body });
const delivery = (marker: string, overrides: Record<string, unknown> = {}) => JSON.stringify(deliveryBody(marker, overrides));
const NOT_AN_OBJECT = { status: 400, field: /Body/, fix: /send a JSON object with event, timestamp and data/ };
const BAD_EVENT = { status: 400, field: /"event"/, fix: /non-empty string such as "invoice\.paid"/ };
const BAD_DATA = { status: 400, field: /"data"/, fix: /must be a JSON object/ };
/** A real delivery, however unusual: answered 200 "Event received" (nothing to fix), and its run starts. */
const ACCEPTED = { status: 200, field: /Event received/, fix: /Event received/, started: true } as const;
const SAME_SECRET = /Webhook Signing Secret of the ERP API credential/;

export const TRIGGER_CASES: TriggerCase[] = [
	{ id: 'not-json', title: 'Body that is not JSON, sent as application/json', trigger: 'plain', request: (m) => post(`{"event": "contact.created", "marker": "${m}",`), expect: { status: 422, field: /request body/, fix: null }, answeredBy: 'n8n' },
	{ id: 'not-json-text', title: 'Body that is not JSON, sent as text/plain', trigger: 'plain', request: (m) => post(`event=contact.created&marker=${m}`, { 'content-type': 'text/plain' }), expect: NOT_AN_OBJECT },
	{ id: 'json-array', title: 'A JSON array of deliveries', trigger: 'plain', request: (m) => post(`[${delivery(m)}]`), expect: NOT_AN_OBJECT },
	{ id: 'empty-body', title: 'An empty body', trigger: 'plain', request: () => post(''), expect: { status: 400, field: /Body is empty/, fix: /send a JSON object with event, timestamp and data/ } },
	{ id: 'unknown-event', title: 'Event "contact.deleted", not one the trigger listens to', trigger: 'plain', request: (m) => post(delivery(m, { event: 'contact.deleted' })), expect: { status: 200, field: /contact\.deleted/, fix: /not selected in this trigger: ignored/ } },
	{ id: 'unknown-event-all-events', title: 'Event "contact.merged" (not in the API document) to an All Events trigger', trigger: 'hmac', request: (m, secret) => { const body = delivery(m, { event: 'contact.merged' }); return post(body, { ...JSON_TYPE, 'x-erp-signature': hmacHex(secret, body) }); }, expect: ACCEPTED },
	{ id: 'event-number', title: 'Event given as the number 42', trigger: 'plain', request: (m) => post(delivery(m, { event: 42 })), expect: BAD_EVENT },
	{ id: 'event-empty', title: 'Event given as an empty string', trigger: 'plain', request: (m) => post(delivery(m, { event: '' })), expect: BAD_EVENT },
	{ id: 'missing-event', title: 'No event field', trigger: 'plain', request: (m) => post(delivery(m, { event: undefined })), expect: { status: 400, field: /"event"/, fix: /name the event/ } },
	{ id: 'missing-timestamp', title: 'No timestamp field (a real delivery: passed on without one)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: undefined })), expect: ACCEPTED },
	{ id: 'timestamp-text', title: 'Timestamp "yesterday" (a real delivery: passed on as sent)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: 'yesterday' })), expect: ACCEPTED },
	{ id: 'timestamp-offset', title: 'Timestamp "2026-11-23T10:00:00+0000" (ISO 8601 without the colon)', trigger: 'plain', request: (m) => post(delivery(m, { timestamp: '2026-11-23T10:00:00+0000' })), expect: ACCEPTED },
	{ id: 'missing-data', title: 'No data field', trigger: 'plain', request: (m) => post(delivery(m, { data: undefined, marker: m })), expect: BAD_DATA },
	{ id: 'data-array', title: 'Data given as an array', trigger: 'plain', request: (m) => post(delivery(m, { data: [{ marker: m }] })), expect: BAD_DATA },
	{ id: 'body-2mb', title: 'A 2 MiB delivery (only n8n’s own 16 MiB limit applies)', trigger: 'plain', request: (m) => post(delivery(m, { data: { marker: m, note: 'x'.repeat(2 * 1024 * 1024) } })), expect: ACCEPTED },
	{ id: 'content-type-text', title: 'A valid delivery sent as text/plain', trigger: 'plain', request: (m) => post(delivery(m), { 'content-type': 'text/plain' }), expect: ACCEPTED },
	{ id: 'content-type-form', title: 'A form post (application/x-www-form-urlencoded)', trigger: 'plain', request: (m) => post(`event=contact.created&marker=${m}`, { 'content-type': 'application/x-www-form-urlencoded' }), expect: NOT_AN_OBJECT },
	{ id: 'get-not-post', title: 'GET instead of POST', trigger: 'plain', request: () => ({ method: 'GET', headers: {} }), expect: { status: 404, field: /GET/, fix: /POST/ }, answeredBy: 'n8n' },
	{ id: 'signature-wrong-secret', title: 'HMAC signature made with another secret', trigger: 'hmac', request: (m) => { const body = delivery(m); return post(body, { ...JSON_TYPE, 'x-erp-signature': hmacHex('not-the-secret', body) }); }, expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-other-body', title: 'Valid signature of another body (tampered delivery)', trigger: 'hmac', request: (m, secret) => post(delivery(m), { ...JSON_TYPE, 'x-erp-signature': hmacHex(secret, delivery('original')) }), expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-malformed', title: 'Signature header "sha256=zzz"', trigger: 'hmac', request: (m) => post(delivery(m), { ...JSON_TYPE, 'x-erp-signature': 'sha256=zzz' }), expect: { status: 401, field: /X-Erp-Signature/, fix: SAME_SECRET } },
	{ id: 'signature-missing', title: 'No signature header', trigger: 'hmac', request: (m) => post(delivery(m)), expect: { status: 401, field: /X-Erp-Signature/, fix: /HMAC-SHA256 of the body/ } },
	{ id: 'shared-secret-wrong', title: 'Wrong shared secret', trigger: 'shared', request: (m) => post(delivery(m), { ...JSON_TYPE, [SECRET_HEADER.toLowerCase()]: 'not-the-secret' }), expect: { status: 401, field: new RegExp(SECRET_HEADER), fix: SAME_SECRET } },
	{ id: 'shared-secret-missing', title: 'No shared-secret header', trigger: 'shared', request: (m) => post(delivery(m)), expect: { status: 401, field: new RegExp(SECRET_HEADER), fix: /send the secret/ } },
];
