import type { ICredentialType, NodeApiError } from 'n8n-workflow';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { Erp } from '../../nodes/Erp/Erp.node';
import { byId } from '../../tooling/host/workflows';
import { runNode, type RunNodeOptions } from '../../tooling/harness/run-node';
import { useTestSandbox } from '../../tooling/harness/sandbox';

const sandbox = useTestSandbox();

/** Two contacts in the sandbox, their ids. */
async function seedContacts(): Promise<[number, number]> {
	await sandbox.admin.seed({ contacts: 2 });
	const [first, second] = await sandbox.admin.records('contacts');
	return [first.id, second.id];
}

/** The API requests the sandbox answered, as `METHOD path?query auth status`. */
async function requests(): Promise<string[]> {
	return (await sandbox.admin.requests()).map(({ method, path, query, auth, status }) => {
		const search = new URLSearchParams(query).toString();
		return `${method} ${path}${search ? `?${search}` : ''} ${auth} ${String(status)}`;
	});
}

/** Runs the ERP node on the sandbox; `parameters` are merged over Contact › Get. */
const run = ({ parameters, ...overrides }: Partial<RunNodeOptions> = {}) =>
	runNode({
		nodeType: new Erp(),
		credentialType: new ErpApi(),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		parameters: { resource: 'contact', operation: 'get', ...parameters },
		...overrides,
	});

describe('runNode', () => {
	it('applies the credential type’s authenticate and outputs the node’s items', async () => {
		const [id] = await seedContacts();
		const { items, error } = await run({ parameters: { contactId: byId(id) } });

		expect(error).toBeUndefined();
		expect(await requests()).toEqual([`GET /contacts/${id} full 200`]);
		expect(items).toEqual([{ json: await sandbox.admin.record('contacts', id), pairedItem: { item: 0 } }]);
	});

	it('refuses a credential type whose authentication it does not emulate (generic), before any request', async () => {
		const generic: ICredentialType = {
			...new ErpApi(),
			authenticate: { type: 'generic', properties: { headers: { Authorization: '=Bearer {{$credentials.apiToken}}' } } },
		};
		const { error } = await run({ credentialType: generic, parameters: { contactId: byId(1) } });

		expect(error?.message).toBe('Credential type "erpApi" extends others, pre-authenticates or authenticates generically: the harness does not support it');
		expect(await requests()).toEqual([]);
	});

	it('resolves expressions in credential data', async () => {
		const [id] = await seedContacts();
		const [head, tail] = [sandbox.token.slice(0, 3), sandbox.token.slice(3)];
		const { error } = await run({
			parameters: { contactId: byId(id) },
			credentials: { baseUrl: `={{ "${sandbox.baseUrl}" }}`, apiToken: `={{ "${head}" + "${tail}" }}` },
		});

		expect(error).toBeUndefined();
		expect(await requests()).toEqual([`GET /contacts/${id} full 200`]);
	});

	it('resolves parameter expressions per item, inside resource locators too', async () => {
		const [a, b] = await seedContacts();
		const { items } = await run({
			parameters: {
				operation: 'update',
				contactId: byId('={{ $json.id }}'),
				updateFields: { company: '={{ $json.text.toUpperCase() }} from {{ $("Start").item.json.id }}' },
			},
			input: [
				{ id: a, text: 'one' },
				{ id: b, text: 'two' },
			],
		});

		expect((await requests()).filter((request) => request.startsWith('PUT'))).toEqual([
			`PUT /contacts/${a} full 200`,
			`PUT /contacts/${b} full 200`,
		]);
		expect(items.map((item) => item.json.company)).toEqual([`ONE from ${a}`, `TWO from ${b}`]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('runs the node’s highest version by default, or the requested one', async () => {
		const erp = new Erp();
		erp.description = { ...erp.description, version: [1, 2] };
		const parameters = { operation: 'getAll', filters: { search: '={{ "v" + $nodeVersion }}' } };
		await run({ nodeType: erp, parameters });
		await run({ nodeType: erp, parameters, typeVersion: 1 });

		expect(await requests()).toEqual([
			'GET /contacts?search=v2&page=1&per_page=50 full 200',
			'GET /contacts?search=v1&page=1&per_page=50 full 200',
		]);
	});

	it('records the error as n8n records it: the NodeApiError’s fields', async () => {
		const { items, outputs, error } = await run({ parameters: { contactId: byId(4242) } });

		expect(items).toEqual([]);
		expect(outputs).toEqual([]);
		expect(error).toMatchObject({ name: 'NodeApiError', message: 'Contact 4242 was not found (404)' });
		expect((error as NodeApiError).httpCode).toBe('404');
		expect((error as NodeApiError).description).toContain('the contact may have been deleted');
	});

	it('turns a failing item into an error item when the node continues on fail', async () => {
		const [id] = await seedContacts();
		const { items, error } = await run({
			parameters: { contactId: byId('={{ $json.id }}') },
			input: [{ id: 4242 }, { id }],
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(items).toEqual([
			{ json: expect.objectContaining({ error: 'Contact 4242 was not found (404)', httpCode: '404' }), pairedItem: { item: 0 } },
			{ json: await sandbox.admin.record('contacts', id), pairedItem: { item: 1 } },
		]);
	});

	it('records the ExpressionError of a parameter that cannot be resolved, before any request', async () => {
		const { items, error } = await run({ parameters: { contactId: byId(1), options: { concurrency: '={{ $("Nope").item.json.x }}' } } });

		expect(items).toEqual([]);
		expect(error).toMatchObject({ name: 'ExpressionError', message: "Referenced node doesn't exist" });
		expect(await requests()).toEqual([]);
	});

	it('resolves an expression that throws a TypeError to nothing, as n8n does', async () => {
		const { error } = await run({
			parameters: { operation: 'getAll', filters: { search: '={{ $json.count.toUpperCase() }}' } },
			input: [{ count: 5 }],
		});

		expect(error).toBeUndefined();
		expect(await requests()).toEqual(['GET /contacts?page=1&per_page=50 full 200']);
	});
});
