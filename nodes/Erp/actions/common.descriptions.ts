import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { FieldSpec, FieldSpecs } from './shared/fields';
import { SIMPLIFIED_MAX_FIELDS } from './shared/output';
import { TOOL_LIMIT } from './shared/tool';
import { concurrencyOption, maxRetriesOption } from '../../shared/requestOptions';
import { docsPage } from '../../shared/docs';
import { capitalize, type RecordNoun } from '../../shared/records';

/** The editor's parameters and fields that more than one resource (or the ERP Polling Trigger) shows. */

/**
 * Display conditions. '@tool' tells the ERP Tool from the node (NodeHelpers.getPropertyValues). An n8n-workflow that
 * does not know '@tool' (1.83, in n8n 1.85) meets neither condition: what the node shows only outside a tool is
 * therefore hidden in a tool (`hide: IN_TOOL`) rather than shown outside one, so that such an n8n shows it.
 */
const IN_TOOL = { '@tool': [true] };
/** From version 1.1 on (n8n-workflow reads `_cnd` since before 1.83). */
const SINCE_1_1 = { '@version': [{ _cnd: { gte: 1.1 } }] };

/**
 * What the model is told the tool does, one per operation: what holds for every ERP that follows the API document,
 * in a few sentences; each argument is described by its own $fromAI() description. Declaring `toolDescription` keeps
 * n8n from adding its own "Set Automatically" description, which would only say "<action> in ERP"; the user can
 * still edit this one.
 */
function toolDescription(text: string): INodeProperties {
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 5 },
		default: text,
		description: 'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
		displayOptions: { show: IN_TOOL },
	};
}

/** An operation's parameters, shown only for that resource and operation, and what the model is told it does. */
export function forOperation(resource: string, operation: string, properties: INodeProperties[], toolText: string): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, [toolDescription(toolText), ...properties]);
}

/** The Resource parameter of the ERP node and of the ERP Polling Trigger: the API document's four resources, and `more`. */
export function resourceProperty(defaultResource: 'contact' | 'invoice', more: INodePropertyOptions[] = []): INodeProperties {
	const options: INodePropertyOptions[] = [
		{ name: 'Contact', value: 'contact' },
		{ name: 'Employee', value: 'employee' },
		{ name: 'Invoice', value: 'invoice' },
		{ name: 'Product', value: 'product' },
	];
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [...options, ...more].sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultResource,
	};
}

// Custom API Call's one operation ('call') reads lists too, when its GET answers one.
const LIST_OPERATIONS = ['getAll', 'getStock', 'getPayroll', 'call'];

/** The node's Options: how requests are sent, plus output choices of some operations. */
export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		concurrencyOption,
		{
			displayName: 'Fetch Full Record',
			name: 'fetchFullRecord',
			type: 'boolean',
			default: false,
			description:
				'Whether to read the contact back after creating it (one more request) and output it as the ERP stores it',
			displayOptions: { show: { '/resource': ['contact'], '/operation': ['create', 'upsert'] } },
		},
		{
			displayName: 'Full Response',
			name: 'fullResponse',
			type: 'boolean',
			default: false,
			description:
				"Whether to return the ERP's answer as one item with its status code, data and paging meta; a list is then read as one page",
			displayOptions: { show: { '/resource': ['customApiCall'] } },
		},
		maxRetriesOption,
		{
			displayName: 'Page Size',
			name: 'pageSize',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 100,
			description:
				'How many records to ask the ERP for per page when reading lists; leave this option out to let the node choose (it follows what the ERP allows)',
			displayOptions: { show: { '/operation': LIST_OPERATIONS } },
		},
		{
			displayName: 'Return As One Item',
			name: 'returnAsOneItem',
			type: 'boolean',
			default: false,
			description: 'Whether to return all records as one item (a records list and a count) instead of one item per record',
			displayOptions: { show: { '/operation': LIST_OPERATIONS } },
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30000,
			description: 'How long to wait for the ERP to answer one request, in milliseconds (30000 = 30 seconds)',
		},
	],
};



/** A resource locator for one record: picked from a searchable list, or given by its integer ID. */
export function recordLocator(noun: RecordNoun, searchListMethod: string, description: string): INodeProperties {
	return {
		displayName: capitalize(noun),
		name: `${noun}Id`,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${noun}...`,
				typeOptions: { searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 42',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: '^\\s*[1-9][0-9]*\\s*$',
							errorMessage: `${capitalize(noun)} ID must be a whole number greater than 0, e.g. 42`,
						},
					},
				],
			},
		],
	};
}

/** n8n's Return All / Limit pair; the Tool variant has no Return All and a small Limit. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { hide: IN_TOOL },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] }, hide: IN_TOOL },
	},
	{
		// A parameter of its own: n8n's verification wants every `limit` to default to 50, a model reads every record.
		displayName: 'Limit',
		name: 'toolLimit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: TOOL_LIMIT,
		description: 'Max number of results to return',
		displayOptions: { show: IN_TOOL },
	},
];

export const queryParametersOption: INodeProperties = {
	displayName: 'Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Parameter',
	description: 'Other filters the ERP understands, sent as they are, e.g. sort = -created_at',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. sort' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. -created_at' },
			],
		},
	],
};

/** Get and Get Many: Simplify in the node (from version 1.1 on), Output (with Fields) in its Tool variant. */
export const outputProperties: INodeProperties[] = [
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: false,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: `At most ${SIMPLIFIED_MAX_FIELDS} fields per record, nested values flattened`,
		displayOptions: { show: SINCE_1_1, hide: IN_TOOL },
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simplified',
		description: 'How much of each record the model gets to read',
		options: [
			{ name: 'Raw', value: 'raw', description: 'Every field, as the ERP returns it' },
			{ name: 'Selected Fields', value: 'selected', description: 'Only the fields named below, and the ID' },
			{
				name: 'Simplified',
				value: 'simplified',
				description: `At most ${SIMPLIFIED_MAX_FIELDS} useful fields per record, nested values flattened`,
			},
		],
		displayOptions: { show: IN_TOOL },
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, company',
		description: 'Comma-separated names of the fields to return (a nested one as custom_fields.vat_number); the ID is always included',
		displayOptions: { show: { ...IN_TOOL, output: ['selected'] } },
	},
];

/** A Get Many operation's parameters: Return All / Limit and the Filters collection (own filters + free-form). */
export function getManyDescription(resource: string, filters: FieldSpecs, toolText: string): INodeProperties[] {
	const [returnAll, limit, toolLimit] = returnAllAndLimit;
	return forOperation(resource, 'getAll', [
		{ ...returnAll, hint: `For very large lists: time and memory per record, and n8n's limit, in <a href="${docsPage('speed.md')}" target="_blank">Speed</a>` },
		limit,
		toolLimit,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: sortedOptions([...Object.values(filters).map((spec) => spec.property), queryParametersOption]),
		},
		...outputProperties,
	], toolText);
}

const customFieldsOption: INodeProperties = {
	displayName: 'Custom Fields',
	name: 'customFields',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Custom Field',
	description: 'Fields your ERP defines itself, sent under custom_fields',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. vat_number' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};

const extraFieldsOption: INodeProperties = {
	displayName: 'Extra Fields (JSON)',
	name: 'extraFields',
	type: 'json',
	default: '{}',
	description: 'Any other fields to send as a JSON object, e.g. {"tags": ["vip"]}; fields set above take precedence',
};

/** Collection options in the alphabetical order n8n's editor (and its lint rules) expect. */
export function sortedOptions(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

/**
 * An "Additional Fields" (or "Update Fields") collection of the given fields, by default with Custom Fields and
 * Extra Fields (JSON) for what the API document does not show.
 */
export function fieldsCollection(
	specs: FieldSpecs,
	{ name = 'additionalFields', displayName = 'Additional Fields', freeForm = true } = {},
): INodeProperties {
	const properties = Object.values(specs).map((spec) => spec.property);
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: sortedOptions(freeForm ? [...properties, customFieldsOption, extraFieldsOption] : properties),
	};
}

/**
 * n8n's field mapper for the body of a new record (as Airtable, Google Sheets and Postgres have it): Map Each
 * Column Manually, or Map Automatically from input fields named as the ERP names them (n8n's editor names the modes
 * itself: fieldWords changes only the words in their descriptions, buttons and notices). Required marks are hints
 * ("map" mode never blocks a run): the API document names no required field, so the ERP's 422 decides.
 */
export function columnsDescription(resourceMapperMethod: string, noun: string): INodeProperties[] {
	// A root path ("/"): n8n 1.x cannot order a dependency on "columns.mappingMode" and refuses the whole node
	// ("Could not resolve parameter dependencies"); both lines read "/columns.mappingMode" from the node's values.
	const auto = { show: { '/columns.mappingMode': ['autoMapInputData'] } };
	return [
		{
			displayName: 'Fields',
			name: 'columns',
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			required: true,
			typeOptions: {
				loadOptionsDependsOn: ['resource'],
				resourceMapper: {
					resourceMapperMethod,
					mode: 'map',
					valuesLabel: `Fields of the ${noun}`,
					fieldWords: { singular: 'field', plural: 'fields' },
					addAllFields: true,
					multiKeyMatch: false,
					supportAutoMap: true,
				},
			},
		},
		{
			displayName: 'Input Fields to Ignore',
			name: 'ignoreFields',
			type: 'string',
			default: '',
			placeholder: 'e.g. row_number, source',
			description: 'Comma-separated names of input fields to leave out of the request',
			displayOptions: auto,
		},
		{
			displayName: 'Other Input Fields',
			name: 'otherInputFields',
			type: 'options',
			default: 'error',
			description: 'What to do with an input field whose name is not one of the fields listed above',
			options: [
				{ name: 'Ignore Them', value: 'ignore', description: 'Leave them out of the request' },
				{ name: 'Send Them to the ERP', value: 'send', description: 'Fields your ERP has beyond those listed; the ERP decides' },
				{ name: 'Stop With an Error', value: 'error', description: 'Refuse the item and name the fields, so nothing is dropped silently' },
			],
			displayOptions: auto,
		},
	];
}

/** The fields a contact and an employee share. */
export const personFields: FieldSpecs = {
	firstName: {
		apiName: 'first_name',
		kind: 'text',
		usuallyRequired: true,
		property: { displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
	},
	lastName: {
		apiName: 'last_name',
		kind: 'text',
		property: { displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
	},
	email: {
		apiName: 'email',
		kind: 'email',
		property: { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@example.com', default: '' },
	},
	phone: {
		apiName: 'phone',
		kind: 'phone',
		property: {
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			placeholder: '+49 30 1234567',
			default: '',
			description: 'In international format: a + and the country code first',
		},
	},
};

/** A currency code; which codes the ERP accepts is its own choice. */
export const currencyField: FieldSpec = {
	apiName: 'currency',
	kind: 'text',
	property: {
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		placeholder: 'EUR',
		description: 'Currency code such as EUR; the ERP uses its default when empty',
	},
};
