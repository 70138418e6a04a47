import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import { type INodeParameters, type INodeProperties, type INodePropertyOptions, NodeHelpers, type ExecutionBaseError, type IDataObject } from 'n8n-workflow';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { Erp } from '../../../../nodes/Erp/Erp.node';
import { SIMPLIFIED_FIELDS } from '../../../../nodes/Erp/actions/shared/output';
import type { RunNodeResult } from '../../../../tooling/harness/run-node';
import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { TOOL_TEXT_MAX_LENGTH, namedIn, parameterNames, recordFieldNames } from '../../../../tooling/host/toolTexts';
import { erpTool, withDefaults } from '../toolVariant';
import { jsonOf, useErpHarness } from './setup';

// What a model is given of the "ERP Tool" variant: its description (n8n's getToolDescriptionForNode) and the input
// schema n8n 2.41 derives from the $fromAI() calls in its parameters (n8n-core's getSchema, as createNodeAsTool).

const tool = erpTool();
const erp = new Erp();

const operations: Array<[string, string]> = erp.description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) => (p.options as INodePropertyOptions[]).map((o): [string, string] => [String(p.displayOptions?.show?.resource?.[0]), String(o.value)]));

const fromAi = (key: string, description: string, type: string) => `={{ $fromAI('${key}', \`${description}\`, '${type}') }}`;
const byIdFromAi = (key: string, description: string) => ({ __rl: true, mode: 'id', value: fromAi(key, description, 'number') });

describe('ERP Tool: what the model is told', () => {
	const sandbox = useTestSandbox();
	let fieldNames: string[];
	beforeAll(async () => {
		await sandbox.admin.seed({ contacts: 5, invoices: 5, products: 5, employees: 5 });
		fieldNames = [...(await recordFieldNames(sandbox.admin)), ...parameterNames()];
	});
	const textOf = (resource: string, operation: string) => NodeHelpers.getToolDescriptionForNode(withDefaults(tool, { resource, operation }), tool);
	const actionOf = (resource: string, operation: string) =>
		((erp.description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.[0] === resource)?.options ?? []) as INodePropertyOptions[]).find(
			(o) => o.value === operation,
		)?.action;

	it.each(operations)("%s › %s has its own short description, in n8n's words for the operation, saying what it returns and naming no field of an ERP's records, no filter or argument (but the key it finds a record by)", (resource, operation) => {
		const node = withDefaults(tool, { resource, operation });
		const text = NodeHelpers.getToolDescriptionForNode(node, tool);

		expect(text).toBe(node.parameters.toolDescription);
		expect(text.length).toBeLessThanOrEqual(TOOL_TEXT_MAX_LENGTH);
		// n8n's own "Set Automatically" text is the operation's action "in ERP": this one starts the same way.
		expect(text.startsWith(`${String(actionOf(resource, operation))} `)).toBe(true);
		expect(text).toMatch(/Returns? /);
		const others = operations.filter(([r, o]) => r !== resource || o !== operation);
		for (const [r, o] of others) expect(textOf(r, o)).not.toBe(text);
		const keys: Record<string, string> = { 'contact upsert': 'email', 'product upsert': 'sku', 'employee createIfNew': 'email' };
		expect(namedIn(text, fieldNames, keys[`${resource} ${operation}`])).toEqual([]);
		// Kept out of the ERP node itself, where no model reads it.
		expect(withDefaults(erp, { resource, operation }).parameters.toolDescription).toBeUndefined();
	});

	it('tells of IDs as whole numbers where a record comes back with one, and that an invoice is created on every call', () => {
		for (const [resource, operation] of [['contact', 'create'], ['invoice', 'getAll'], ['employee', 'createIfNew']]) {
			expect(textOf(resource, operation)).toContain('ID (a whole number)');
		}
		expect(textOf('invoice', 'create')).toMatch(/Each call creates another invoice/);
	});

	it.each([
		["a tool saved with n8n's former 'Set Automatically' (descriptionType auto): the operation's text", { descriptionType: 'auto', resource: 'product', operation: 'getStock' }, /^Get the stock of a product in the ERP /],
		['a description the user wrote: that one', { resource: 'contact', operation: 'get', toolDescription: 'Look up a customer by ID' }, /^Look up a customer by ID$/],
	])('gives %s', (_what, parameters, text) => {
		const node = withDefaults(tool, parameters);
		expect(node.parameters.descriptionType).toBeUndefined();
		expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toMatch(text);
	});

	it('accepts expressions, so $fromAI(), in every parameter but Resource, Operation and the Fields mapper (whose values take them)', () => {
		const fixed = new Set<string>();
		const visit = (properties: INodeProperties[]) => {
			for (const property of properties) {
				if (property.noDataExpression) fixed.add(property.name);
				for (const option of property.options ?? []) {
					if ('values' in option) visit(option.values);
					else if ('type' in option) visit([option as INodeProperties]);
				}
			}
		};
		visit(tool.description.properties);
		expect([...fixed].sort()).toEqual(['columns', 'operation', 'resource']);
	});
});

describe('ERP Tool: the input schema n8n builds from $fromAI()', () => {
	const schemaOf = (parameters: INodeParameters) => getSchema(withDefaults(tool, parameters, 'Create invoice'));
	const jsonSchemaOf = (parameters: INodeParameters) => zodToJsonSchema(schemaOf(parameters) as never) as { properties: Record<string, { type?: string }>; required: string[] };

	it('Create an invoice: a whole-number contact ID, the lines as one JSON argument, an optional-looking currency still typed', () => {
		const parameters = {
			resource: 'invoice',
			operation: 'create',
			contactId: byIdFromAi('contact_id', 'The ID of the contact to bill, a whole number'),
			lines: fromAi('lines', 'The invoice lines: a JSON list of {description, quantity, unit_price}', 'json'),
			additionalFields: { currency: fromAi('currency', 'Currency code such as EUR', 'string'), dueDate: fromAi('due_date', 'Due date as YYYY-MM-DD', 'string') },
		};
		const schema = jsonSchemaOf(parameters);
		expect(schema.required.sort()).toEqual(['contact_id', 'currency', 'due_date', 'lines']);
		expect(schema.properties.contact_id.type).toBe('number');
		expect(schema.properties.currency.type).toBe('string');
		// n8n gives 'json' its own JSON schema: a non-empty object or list (what MCP clients and agents see).
		const lines = schemaOf(parameters).shape.lines as unknown as { _def: { jsonSchema: unknown } };
		expect(lines._def.jsonSchema).toEqual({ anyOf: [{ type: 'object', minProperties: 1, additionalProperties: true }, { type: 'array', minItems: 1 }] });
	});
	// Which parameters take $fromAI(): the expressions test above; each argument's type is the $fromAI() call's own (n8n's getSchema).
});

describe('ERP Tool runs', () => {
	// The "ERP Tool" variant run as n8n runs a tool call: the model's arguments are the input item that $fromAI()
	// reads (n8n's WorkflowDataProxy, on a tool's first run), the sandbox ERP answers.

	const h = useErpHarness({ contacts: 15, products: 3 });

	const fromAi = (key: string, type = 'string') => `={{ $fromAI('${key}', 'what the model fills in', '${type}') }}`;
	const idFromAi = (key: string) => ({ __rl: true, mode: 'id', value: fromAi(key, 'number') });
	const callTool = async (parameters: INodeParameters, args: IDataObject, options: { baseUrl?: string } = {}) => await h.run(parameters, { asTool: true, input: [args], ...options });
	const firstContact = async () => (await h.sandbox.admin.records('contacts'))[0];
	const contactColumns = { mappingMode: 'defineBelow', value: { first_name: fromAi('first_name'), email: fromAi('email') }, matchingColumns: [], schema: [] };

	/** What the model (or an MCP client) reads when a tool call fails: n8n 2.41's makeHandleToolInvocation and MCP formatError. */
	function toolErrorText(error: RunNodeResult['error']): string {
		const { message, description } = error as ExecutionBaseError;
		return `NodeOperationError: ${description && !message.includes(description) ? `${message}\n\nDetails: ${description}` : message}`;
	}

	describe('ERP Tool: calls with the arguments a model gives', () => {
		it('creates an invoice from the contact ID and the lines as one JSON argument, a list, JSON text or a single line, in one request each', async () => {
			const contact = await firstContact();
			const lines = [
				{ description: 'Consulting', quantity: 3, unit_price: 120 },
				{ description: 'Travel', quantity: 1, unit_price: 80.5, tax_rate: 0 },
			];
			const create = { resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id') };
			const result = await callTool({ ...create, lines: fromAi('lines', 'json'), additionalFields: { currency: fromAi('currency') } }, { contact_id: contact.id, lines, currency: 'EUR' });
			const [invoice] = await h.sandbox.admin.records('invoices');
			expect(invoice).toMatchObject({ contact_id: contact.id, status: 'draft', subtotal: 440.5 });
			expect(jsonOf(result)[0]).toMatchObject({ id: invoice.id, number: invoice.number, lines: invoice.lines });
			await callTool({ ...create, lines: JSON.stringify([lines[0]]) }, { contact_id: contact.id });
			await callTool({ ...create, lines: fromAi('lines', 'json') }, { contact_id: contact.id, lines: lines[0] });
			const requests = await h.requests();
			expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /invoices', 'POST /invoices', 'POST /invoices']);
			expect(requests.map((r) => r.body)).toEqual([
				{ contact_id: contact.id, currency: 'EUR', lines },
				{ contact_id: contact.id, lines: [lines[0]] },
				{ contact_id: contact.id, lines: [lines[0]] },
			]);
		});

		it("updates a contact from the model's ID and Update Fields arguments: the fields left out keep their values", async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[1];
			const result = await callTool(
				{ resource: 'contact', operation: 'update', contactId: idFromAi('contact_id'), updateFields: { phone: fromAi('phone'), company: fromAi('company') } },
				{ contact_id: String(contact.id), phone: '+49 30 1234567', company: 'Acme GmbH' },
			);
			expect(result.error).toBeUndefined();
			expect(await h.sandbox.admin.record('contacts', contact.id)).toMatchObject({ ...contact, phone: '+49 30 1234567', company: 'Acme GmbH', updated_at: expect.any(String) });
		});

		it('finds the products below their threshold from a boolean argument, in one request', async () => {
			await h.sandbox.admin.seed({ products: 30 });
			await h.mark();
			const result = await callTool({ resource: 'product', operation: 'getAll', filters: { lowStock: fromAi('low_stock', 'boolean') } }, { low_stock: true });
			expect((await h.requests()).map((r) => `${r.method} ${r.path} ${r.query.low_stock}`)).toEqual(['GET /products true']);
			const low = (await h.sandbox.admin.records('products')).filter((p) => p.stock_total <= p.low_stock_threshold);
			expect(low.length).toBeGreaterThan(0);
			expect(jsonOf(result).map((p) => p.id)).toEqual(low.map((p) => p.id));
		});
	});

	describe('ERP Tool: output a model can read', () => {
		it.each([
			['contact', 'contacts', { contact_id: 2 }, { resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') }],
			['invoice', 'invoices', { invoice_id: 1 }, { resource: 'invoice', operation: 'get', invoiceId: idFromAi('invoice_id') }],
		] as const)('Get returns the simplified %s by default: its ten flat fields, the ID first', async (resource, records, args, parameters) => {
			await h.sandbox.admin.seed({ invoices: 2 });
			const record = (await h.sandbox.admin.records(records)).find((r) => r.id === Object.values(args)[0]) as unknown as IDataObject;
			const [item] = jsonOf(await callTool(parameters, args));
			expect(Object.keys(item)).toEqual(SIMPLIFIED_FIELDS[resource]);
			expect(item).toEqual(Object.fromEntries(SIMPLIFIED_FIELDS[resource].map((name) => [name, record[name]])));
		});

		it('Output Raw gives the record as the ERP sent it; Selected Fields gives those and the ID', async () => {
			const product = (await h.sandbox.admin.records('products'))[0];
			const get = { resource: 'product', operation: 'get', productId: idFromAi('product_id') };
			expect(jsonOf(await callTool({ ...get, output: 'raw' }, { product_id: product.id }))).toEqual([product]);
			const [picked] = jsonOf(await callTool({ ...get, output: 'selected', fields: 'stock_total, low_stock_threshold, nope' }, { product_id: product.id }));
			expect(picked).toEqual({ id: product.id, stock_total: product.stock_total, low_stock_threshold: product.low_stock_threshold });
		});

		it.each<[string, INodeParameters, IDataObject, number]>([
			['at most 10 records by default', {}, {}, 10],
			['the Limit a model gives', { toolLimit: fromAi('limit', 'number') }, { limit: 3 }, 3],
			['not the whole list for a Return All left over from the node', { returnAll: true }, {}, 10],
		])('Get Many returns %s, simplified, from one request', async (_what, parameters, args, count) => {
			const result = jsonOf(await callTool({ resource: 'contact', operation: 'getAll', ...parameters }, args));
			expect([result.length, result.every((contact) => Object.keys(contact).length <= 10), (await h.requests()).length]).toEqual([count, true, 1]);
		});

		it('in the ERP node, Simplify is off by default (the raw records, as before) and on gives the same simplified records', async () => {
			const contacts = await h.sandbox.admin.records('contacts');
			expect(jsonOf(await h.run({ resource: 'contact', operation: 'getAll', limit: 3 }))).toEqual(contacts.slice(0, 3));
			const simple = jsonOf(await h.run({ resource: 'contact', operation: 'getAll', limit: 3, simplify: true, options: { returnAsOneItem: true } }));
			expect(simple).toEqual([{ records: contacts.slice(0, 3).map((c) => Object.fromEntries(SIMPLIFIED_FIELDS.contact.map((name) => [name, c[name as keyof typeof c]]))), count: 3 }]);
		});
	});

	describe('ERP Tool: failures the model can act on', () => {
		const SECRET = 's3cr3t-query-token';

		it.each<[string, INodeParameters, IDataObject, string | RegExp]>([
			[
				'an unknown ID: the record, the argument that held it and how to find the right one',
				{ resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') },
				{ contact_id: 999999 },
				'NodeOperationError: Contact 999999 was not found (404)\n\nDetails: Check the ID: the contact may have been deleted, or no contact ever had ID 999999; search the contacts to find the right ID. The ID was the "contact_id" argument.',
			],
			[
				'an ID that is not a whole number, naming the argument',
				{ resource: 'product', operation: 'getStock', productId: idFromAi('product_id') },
				{ product_id: 'the blue chair' },
				'NodeOperationError: Product ID (argument "product_id") "the blue chair" is not a whole number: enter the numeric ID, e.g. 42\n\nDetails: ERP IDs are whole numbers greater than 0. Give the numeric ID, e.g. 42; look the record up with a search tool when you only know its name or email.',
			],
			[
				'lines that are not a list of line objects, naming the argument and the form',
				{ resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id'), lines: fromAi('lines', 'json') },
				{ contact_id: 1, lines: [{ description: 'Consulting', quantity: 'three', unit_price: 120 }] },
				'NodeOperationError: Lines (JSON) (argument "lines"), line 1: quantity must be a number, not "three"',
			],
			[
				"a 422: the ERP's own field messages, and that nothing was saved",
				{ resource: 'contact', operation: 'create', columns: contactColumns },
				{ first_name: '', email: 'ada@example.com' },
				/^NodeOperationError: The ERP refused to create the contact \(422\): first_name: [^\n]+\n\nDetails: Nothing was saved\. Fix this field and try again: first_name: /,
			],
			[
				'a value in the wrong form: the argument and the form to use',
				{ resource: 'contact', operation: 'upsert', columns: contactColumns },
				{ first_name: 'Ada', email: 'ada at example' },
				'NodeOperationError: Field email (argument "email") "ada at example" is not a valid e-mail address: use the form name@example.com',
			],
			[
				'a missing key field of Create or Update: the argument to give',
				{ resource: 'contact', operation: 'upsert', columns: contactColumns },
				{ first_name: 'Ada', email: ' ' },
				'NodeOperationError: The email field (argument "email") is empty: it is how an existing contact is found\n\nDetails: Give the contact\'s email; nothing was sent to the ERP.',
			],
		])('%s', async (_what, parameters, args, text) => {
			const result = await callTool(parameters, args);
			if (typeof text === 'string') expect(toolErrorText(result.error)).toBe(text);
			else expect(toolErrorText(result.error)).toMatch(text);
			expect(await h.sandbox.admin.records('contacts')).toHaveLength(15);
			expect(await h.sandbox.admin.records('invoices')).toEqual([]);
		});

		it('never shows the token, a password or a query token of the Base URL, nor a stack', async () => {
			const url = new URL(h.sandbox.baseUrl);
			const get = { resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') };
			const text = toolErrorText((await callTool(get, { contact_id: 1 }, { baseUrl: `${url.protocol}//erp-user:${SECRET}@${url.host}/api/v2` })).error);
			expect(text).toContain('(404)');
			for (const secret of [SECRET, 'erp-user', h.sandbox.token]) expect(text).not.toContain(secret);
			expect(text).not.toMatch(/\n\s+at /);
			expect(toolErrorText((await callTool(get, { contact_id: 1 }, { baseUrl: `${h.sandbox.baseUrl}?token=${SECRET}` })).error)).not.toContain(SECRET);
		});
	});
});
