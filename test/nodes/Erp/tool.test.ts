import { getSchema } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { zodToJsonSchema } from 'zod-to-json-schema';

import { Erp } from '../../../nodes/Erp/Erp.node';
import { useTestSandbox } from '../../../tooling/harness/sandbox';
import { TOOL_TEXT_MAX_LENGTH, namedIn, parameterNames, recordFieldNames } from '../../../tooling/host/toolTexts';
import { erpTool, withDefaults } from './toolVariant';

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
