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

	it('covers all 23 operations', () => {
		expect(operations).toHaveLength(23);
	});

	it.each(operations)('%s › %s has its own short description, in n8n\'s words for the operation, saying what it returns', (resource, operation) => {
		const node = withDefaults(tool, { resource, operation });
		const text = NodeHelpers.getToolDescriptionForNode(node, tool);

		expect(text).toBe(node.parameters.toolDescription);
		expect(text.length).toBeLessThanOrEqual(TOOL_TEXT_MAX_LENGTH);
		// n8n's own "Set Automatically" text is the operation's action "in ERP": this one starts the same way.
		expect(text.startsWith(`${String(actionOf(resource, operation))} `)).toBe(true);
		expect(text).toMatch(/Returns? /);
		const others = operations.filter(([r, o]) => r !== resource || o !== operation);
		for (const [r, o] of others) expect(textOf(r, o)).not.toBe(text);
	});

	it.each(operations)('%s › %s names no field of an ERP\'s records and no filter or argument (but the key it finds a record by)', (resource, operation) => {
		const keys: Record<string, string> = { 'contact upsert': 'email', 'product upsert': 'sku', 'employee createIfNew': 'email' };
		const key = keys[`${resource} ${operation}`];
		expect(namedIn(textOf(resource, operation), fieldNames, key)).toEqual([]);
	});

	it('tells of IDs as whole numbers where a record comes back with one, and that an invoice is created on every call', () => {
		for (const [resource, operation] of [['contact', 'create'], ['invoice', 'getAll'], ['employee', 'createIfNew']]) {
			expect(textOf(resource, operation)).toContain('ID (a whole number)');
		}
		expect(textOf('invoice', 'create')).toMatch(/Each call creates another invoice/);
	});

	it('keeps the tool texts out of the ERP node itself, where no model reads them', () => {
		for (const [resource, operation] of operations) {
			expect(withDefaults(erp, { resource, operation }).parameters.toolDescription).toBeUndefined();
		}
	});

	it("gives a tool saved with n8n's former 'Set Automatically' (descriptionType auto) the operation's text too", () => {
		const node = withDefaults(tool, { descriptionType: 'auto', resource: 'product', operation: 'getStock' });
		expect(node.parameters.descriptionType).toBeUndefined();
		expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toMatch(/^Get the stock of a product in the ERP /);
	});

	it('lets a user still write the description: an edited one is what the model gets', () => {
		const node = withDefaults(tool, { resource: 'contact', operation: 'get', toolDescription: 'Look up a customer by ID' });
		expect(NodeHelpers.getToolDescriptionForNode(node, tool)).toBe('Look up a customer by ID');
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

	it('Create or update a contact: the mapped Fields each become a string argument', () => {
		const schema = jsonSchemaOf({
			resource: 'contact',
			operation: 'upsert',
			columns: {
				mappingMode: 'defineBelow',
				value: { email: fromAi('email', 'E-mail address', 'string'), first_name: fromAi('first_name', 'First name', 'string'), company: fromAi('company', 'Company', 'string') },
				matchingColumns: [],
				schema: [],
			},
		});
		expect(Object.keys(schema.properties).sort()).toEqual(['company', 'email', 'first_name']);
		expect(Object.values(schema.properties).map((p) => p.type)).toEqual(['string', 'string', 'string']);
	});

	it('Update Fields, filters, Limit and Output take arguments too, with their types', () => {
		const schema = jsonSchemaOf({
			resource: 'product',
			operation: 'getAll',
			toolLimit: fromAi('limit', 'How many products at most', 'number'),
			filters: { lowStock: fromAi('low_stock', 'true for products at or below their threshold', 'boolean') },
			output: 'selected',
			fields: fromAi('fields', 'Comma-separated field names', 'string'),
		});
		expect(schema.properties).toMatchObject({ limit: { type: 'number' }, low_stock: { type: 'boolean' }, fields: { type: 'string' } });
		expect(jsonSchemaOf({ resource: 'contact', operation: 'update', contactId: byIdFromAi('contact_id', 'ID'), updateFields: { phone: fromAi('phone', 'Phone', 'string') } }).properties).toEqual({
			contact_id: { type: 'number', description: 'ID' },
			phone: { type: 'string', description: 'Phone' },
		});
	});
});

describe('ERP Tool runs', () => {
	// The "ERP Tool" variant run as n8n runs a tool call: the model's arguments are the input item that $fromAI()
	// reads (n8n's WorkflowDataProxy, on a tool's first run), the sandbox ERP answers.

	const h = useErpHarness({ contacts: 15, products: 3 });

	const fromAi = (key: string, type = 'string') => `={{ $fromAI('${key}', 'what the model fills in', '${type}') }}`;
	const idFromAi = (key: string) => ({ __rl: true, mode: 'id', value: fromAi(key, 'number') });

	async function callTool(parameters: INodeParameters, args: IDataObject, options: { baseUrl?: string } = {}): Promise<RunNodeResult> {
		return await h.run(parameters, { asTool: true, input: [args], ...options });
	}

	/** What the model (or an MCP client) reads when a tool call fails: n8n 2.41's makeHandleToolInvocation and MCP formatError. */
	function toolErrorText(error: RunNodeResult['error']): string {
		const { message, description } = error as ExecutionBaseError;
		return `NodeOperationError: ${description && !message.includes(description) ? `${message}\n\nDetails: ${description}` : message}`;
	}

	describe('ERP Tool: calls with the arguments a model gives', () => {
		it('creates an invoice from the contact ID and the lines given as one JSON argument, in one request', async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[0];
			const lines = [
				{ description: 'Consulting', quantity: 3, unit_price: 120 },
				{ description: 'Travel', quantity: 1, unit_price: 80.5, tax_rate: 0 },
			];
			const result = await callTool(
				{ resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id'), lines: fromAi('lines', 'json'), additionalFields: { currency: fromAi('currency') } },
				{ contact_id: contact.id, lines, currency: 'EUR' },
			);

			expect(result.error).toBeUndefined();
			const requests = await h.requests();
			expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /invoices']);
			expect(requests[0].body).toEqual({ contact_id: contact.id, currency: 'EUR', lines });
			const [invoice] = await h.sandbox.admin.records('invoices');
			expect(invoice).toMatchObject({ contact_id: contact.id, status: 'draft', subtotal: 440.5 });
			expect(jsonOf(result)[0]).toMatchObject({ id: invoice.id, number: invoice.number, lines: invoice.lines });
		});

		it('takes the lines as JSON text too, and as a single line object', async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[0];
			const line = { description: 'Consulting', quantity: 2, unit_price: 100 };
			await callTool({ resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id'), lines: JSON.stringify([line]) }, { contact_id: contact.id });
			await callTool({ resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id'), lines: fromAi('lines', 'json') }, { contact_id: contact.id, lines: line });
			expect((await h.requests()).map((r) => (r.body as IDataObject).lines)).toEqual([[line], [line]]);
		});

		it("updates a contact from the model's ID and Update Fields arguments: the fields left out keep their values", async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[1];
			const result = await callTool(
				{ resource: 'contact', operation: 'update', contactId: idFromAi('contact_id'), updateFields: { phone: fromAi('phone'), company: fromAi('company') } },
				{ contact_id: String(contact.id), phone: '+49 30 1234567', company: 'Acme GmbH' },
			);
			expect(result.error).toBeUndefined();
			expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /contacts/${contact.id}`, `PUT /contacts/${contact.id}`]);
			expect(await h.sandbox.admin.record('contacts', contact.id)).toMatchObject({ ...contact, phone: '+49 30 1234567', company: 'Acme GmbH', updated_at: expect.any(String) });
		});

		it('finds the products below their threshold from a boolean argument, in one request', async () => {
			await h.sandbox.admin.seed({ products: 30 });
			await h.mark();
			const result = await callTool({ resource: 'product', operation: 'getAll', filters: { lowStock: fromAi('low_stock', 'boolean') } }, { low_stock: true });
			const requests = await h.requests();
			expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /products']);
			expect(requests[0].query).toMatchObject({ low_stock: 'true' });
			const low = (await h.sandbox.admin.records('products')).filter((p) => p.stock_total <= p.low_stock_threshold);
			expect(low.length).toBeGreaterThan(0);
			expect(jsonOf(result).map((p) => p.id)).toEqual(low.map((p) => p.id));
		});

		it('refuses lines that are not a list of line objects, naming the argument and the form', async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[0];
			const result = await callTool(
				{ resource: 'invoice', operation: 'create', contactId: idFromAi('contact_id'), lines: fromAi('lines', 'json') },
				{ contact_id: contact.id, lines: [{ description: 'Consulting', quantity: 'three', unit_price: 120 }] },
			);
			expect(toolErrorText(result.error)).toBe(
				'NodeOperationError: Lines (JSON) (argument "lines"), line 1: quantity must be a number, not "three"',
			);
			expect(await h.requests()).toEqual([]);
		});
	});

	describe('ERP Tool: output a model can read', () => {
		it('Get returns the simplified contact by default: at most 10 fields, the ID first, nothing nested', async () => {
			const contact = (await h.sandbox.admin.records('contacts'))[2];
			const [item] = jsonOf(await callTool({ resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') }, { contact_id: contact.id }));

			expect(Object.keys(item)).toEqual(SIMPLIFIED_FIELDS.contact);
			expect(item).toEqual(Object.fromEntries(SIMPLIFIED_FIELDS.contact.map((name) => [name, contact[name as keyof typeof contact]])));
		});

		it('Get returns an invoice simplified to ten flat fields (its lines and custom fields left out)', async () => {
			await h.sandbox.admin.seed({ invoices: 2 });
			const invoice = (await h.sandbox.admin.records('invoices'))[0];
			const [item] = jsonOf(await callTool({ resource: 'invoice', operation: 'get', invoiceId: idFromAi('invoice_id') }, { invoice_id: invoice.id }));
			expect(Object.keys(item)).toEqual(SIMPLIFIED_FIELDS.invoice);
			expect(item).toMatchObject({ id: invoice.id, number: invoice.number, status: invoice.status, amount_due: invoice.amount_due });
		});

		it('Output Raw gives the record as the ERP sent it; Selected Fields gives those and the ID', async () => {
			const product = (await h.sandbox.admin.records('products'))[0];
			const get = { resource: 'product', operation: 'get', productId: idFromAi('product_id') };
			const [raw] = jsonOf(await callTool({ ...get, output: 'raw' }, { product_id: product.id }));
			expect(raw).toEqual(product);
			const [picked] = jsonOf(await callTool({ ...get, output: 'selected', fields: 'stock_total, low_stock_threshold, nope' }, { product_id: product.id }));
			expect(picked).toEqual({ id: product.id, stock_total: product.stock_total, low_stock_threshold: product.low_stock_threshold });
		});

		it('Get Many returns at most 10 records by default, from one request', async () => {
			const result = await callTool({ resource: 'contact', operation: 'getAll' }, {});
			expect(jsonOf(result)).toHaveLength(10);
			expect(jsonOf(result).every((contact) => Object.keys(contact).length <= 10)).toBe(true);
			expect(await h.requests()).toHaveLength(1);
		});

		it('Get Many reads the Limit a model gives, in one request', async () => {
			const since = (await h.requests()).length;
			const result = await callTool({ resource: 'contact', operation: 'getAll', toolLimit: fromAi('limit', 'number') }, { limit: 3 });
			expect(jsonOf(result)).toHaveLength(3);
			expect((await h.requests()).slice(since)).toHaveLength(1);
		});

		it('Get Many ignores a Return All left over from the node: a tool never reads the whole list', async () => {
			const result = await callTool({ resource: 'contact', operation: 'getAll', returnAll: true }, {});
			expect(jsonOf(result)).toHaveLength(10);
		});

		it('in the ERP node, Simplify is off by default (the raw records, as before) and on gives the same simplified records', async () => {
			const contacts = await h.sandbox.admin.records('contacts');
			const raw = jsonOf(await h.run({ resource: 'contact', operation: 'getAll', limit: 3 }));
			expect(raw).toEqual(contacts.slice(0, 3));
			const simple = jsonOf(await h.run({ resource: 'contact', operation: 'getAll', limit: 3, simplify: true }));
			expect(simple.map((c) => Object.keys(c))).toEqual([SIMPLIFIED_FIELDS.contact, SIMPLIFIED_FIELDS.contact, SIMPLIFIED_FIELDS.contact]);
			const asOne = jsonOf(await h.run({ resource: 'contact', operation: 'getAll', limit: 3, simplify: true, options: { returnAsOneItem: true } }));
			expect(asOne).toEqual([{ records: simple, count: 3 }]);
		});
	});

	describe('ERP Tool: failures the model can act on', () => {
		const SECRET = 's3cr3t-query-token';

		it('an unknown ID: the record, the argument that held it and how to find the right one', async () => {
			const result = await callTool({ resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') }, { contact_id: 999999 });
			expect(toolErrorText(result.error)).toBe(
				'NodeOperationError: Contact 999999 was not found (404)\n\nDetails: Check the ID: the contact may have been deleted, or no contact ever had ID 999999; ' +
					'search the contacts to find the right ID. The ID was the "contact_id" argument.',
			);
		});

		it('an ID that is not a whole number is refused before any request, naming the argument', async () => {
			const result = await callTool({ resource: 'product', operation: 'getStock', productId: idFromAi('product_id') }, { product_id: 'the blue chair' });
			expect(toolErrorText(result.error)).toBe(
				'NodeOperationError: Product ID (argument "product_id") "the blue chair" is not a whole number: enter the numeric ID, e.g. 42\n\n' +
					'Details: ERP IDs are whole numbers greater than 0. Give the numeric ID, e.g. 42; look the record up with a search tool when you only know its name or email.',
			);
			expect(await h.requests()).toEqual([]);
		});

		it("a 422: the ERP's own field messages, and that nothing was saved", async () => {
			const columns = { mappingMode: 'defineBelow', value: { first_name: fromAi('first_name'), email: fromAi('email') }, matchingColumns: [], schema: [] };
			const result = await callTool({ resource: 'contact', operation: 'create', columns }, { first_name: '', email: 'ada@example.com' });
			const text = toolErrorText(result.error);
			expect(text).toMatch(/^NodeOperationError: The ERP refused to create the contact \(422\): first_name: [^\n]+\n\nDetails: Nothing was saved\. Fix this field and try again: first_name: /);
			expect(await h.sandbox.admin.records('contacts')).toHaveLength(15);
		});

		it('a value in the wrong form: the argument and the form to use', async () => {
			const columns = { mappingMode: 'defineBelow', value: { first_name: fromAi('first_name'), email: fromAi('email') }, matchingColumns: [], schema: [] };
			const result = await callTool({ resource: 'contact', operation: 'upsert', columns }, { first_name: 'Ada', email: 'ada at example' });
			expect(toolErrorText(result.error)).toBe(
				'NodeOperationError: Field email (argument "email") "ada at example" is not a valid e-mail address: use the form name@example.com',
			);
		});

		it('a missing key field of Create or Update: the argument to give', async () => {
			const columns = { mappingMode: 'defineBelow', value: { first_name: fromAi('first_name'), email: fromAi('email') }, matchingColumns: [], schema: [] };
			const result = await callTool({ resource: 'contact', operation: 'upsert', columns }, { first_name: 'Ada', email: ' ' });
			expect(toolErrorText(result.error)).toBe(
				'NodeOperationError: The email field (argument "email") is empty: it is how an existing contact is found\n\n' +
					"Details: Give the contact's email; nothing was sent to the ERP.",
			);
		});

		it('a rate limit that outlasted the retries: nothing done, wait and try again', async () => {
			await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 429, retryAfter: 1 }, times: 5 });
			const result = await callTool({ resource: 'contact', operation: 'getAll', options: { maxRetries: 1 } }, {});
			expect(toolErrorText(result.error)).toMatch(
				/^NodeOperationError: The ERP is still rate-limiting requests after 1 retry \(429\)\n\nDetails: Nothing was done\. Wait a minute before trying again/,
			);
		});

		it('never shows the token, a password or a query token of the Base URL, nor a stack', async () => {
			const url = new URL(h.sandbox.baseUrl);
			const withSecrets = `${url.protocol}//erp-user:${SECRET}@${url.host}/api/v2`;
			const result = await callTool({ resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') }, { contact_id: 1 }, { baseUrl: withSecrets });
			const text = toolErrorText(result.error);
			expect(text).toContain('(404)');
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain('erp-user');
			expect(text).not.toContain(h.sandbox.token);
			expect(text).not.toMatch(/\n\s+at /);

			const query = await callTool({ resource: 'contact', operation: 'get', contactId: idFromAi('contact_id') }, { contact_id: 1 }, { baseUrl: `${h.sandbox.baseUrl}?token=${SECRET}` });
			expect(toolErrorText(query.error)).not.toContain(SECRET);
		});
	});
});
