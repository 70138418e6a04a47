import type { INodeProperties } from 'n8n-workflow';

import { concurrencyOption, maxRetriesOption } from '../shared/requestOptions';
import { DEFAULT_PAGE_SIZE } from '../shared/transport/paginate';
import { docsPage } from '../shared/docs';
import { capitalize } from '../shared/records';
import { DEFAULT_STOCK_READS_PER_POLL } from './config';
import { on, RESOURCES, WATCHES, type TriggerOn, type WatchedResource } from './watches';

/** "a contact", "an invoice". */
const aOrAn = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

/** What one record is called in a watch's description: the resource, or a record of the list at List Path. */
const noun = (resource: WatchedResource) => (resource === 'list' ? 'record' : resource);

/** Each watch's name after the resource's ("Contact Added"), its name for any list, and what it reports, for a resource. */
const WATCH_TEXTS: Record<TriggerOn, { name: string; anyList?: string; description: (resource: WatchedResource) => string }> = {
	fieldValue: {
		name: 'Field Becomes a Value',
		anyList: 'Record Field Becomes a Value in Any List',
		description: (r) => (r === 'invoice' ? "An invoice's Field takes the Value, e.g. its status becomes paid" : `${capitalize(aOrAn(noun(r)))}'s Field takes the Value`),
	},
	recordAdded: { name: 'Added', anyList: 'Record Added to Any List', description: (r) => `${capitalize(aOrAn(noun(r)))} with an ID not seen before` },
	recordAddedOrUpdated: { name: 'Added or Updated', anyList: 'Record Added or Updated in Any List', description: (r) => `A new ${noun(r)}, or a change to one already seen` },
	recordUpdated: { name: 'Updated', anyList: 'Record Updated in Any List', description: (r) => `A change to ${aOrAn(noun(r))} already seen` },
	lowStock: { name: 'Stock Below Threshold', description: () => "A product's total stock over its warehouses falls below a threshold" },
};

/** The Trigger On choices: "Contact Added", and for any list "Record Added to Any List". */
const choices = RESOURCES.flatMap((resource) =>
	WATCHES[resource].map((t) => {
		const texts = WATCH_TEXTS[t];
		const name = resource === 'list' ? (texts.anyList as string) : `${capitalize(resource)} ${texts.name}`;
		const description = texts.description(resource) + (resource === 'list' ? ', in the list at List Path' : '');
		return { name, value: `${resource}:${t}`, action: `On ${name.toLowerCase()}`, description };
	}),
).sort((a, b) => a.name.localeCompare(b.name));

/** The canvas subtitle: the Trigger On choice's name, e.g. "Product Stock Below Threshold". */
export const SUBTITLE = `={{ ${JSON.stringify(Object.fromEntries(choices.map(({ value, name }) => [value, name])))}[$parameter["triggerOn"]] }}`;

/**
 * Trigger On names the resource and the watch together (`product:lowStock`): n8n's node panel lists a trigger's
 * entries from its first property named Trigger On, one per option (its `action`), and an entry can set only that
 * one property. Each entry says the option's name: "On contact added" for Contact Added.
 */
const watchProperty: INodeProperties = {
	displayName: 'Trigger On',
	name: 'triggerOn',
	type: 'options',
	noDataExpression: true,
	options: choices,
	default: 'invoice:fieldValue',
};

const anyList = on(WATCHES.list, ['list']);

export const properties: INodeProperties[] = [
	{
		displayName:
			'Asks the ERP for changes at each poll time: no public URL needed, and it catches up after n8n was down. For instant events, when the ERP can reach n8n, use the ERP Trigger.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	watchProperty,
	{
		displayName: 'List Path',
		name: 'listPath',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. /orders',
		description: "The path of the list to watch, below the credential's Base URL: /orders for https://erp.example.com/api/v1/orders",
		displayOptions: { show: { triggerOn: anyList } },
	},
	{
		displayName: 'ID Field',
		name: 'idField',
		type: 'string',
		required: true,
		default: 'id',
		placeholder: 'e.g. number',
		description: "The field whose value tells the list's records apart, as the ERP names it, e.g. number or reference",
		displayOptions: { show: { triggerOn: anyList } },
	},
	{
		displayName: 'Fields to Watch',
		name: 'fieldsToWatch',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, phone',
		description:
			"Field names, separated by commas, whose changes start the workflow; leave empty to watch every field. Listing fields also gives each change's previous value.",
		displayOptions: { show: { triggerOn: on(['recordUpdated', 'recordAddedOrUpdated']) } },
	},
	// Invoices start with the field status; the other resources' records have none (in the sandbox).
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		required: true,
		default: 'status',
		placeholder: 'e.g. status',
		description: "The record's field to watch, as the ERP names it",
		displayOptions: { show: { triggerOn: on(['fieldValue'], ['invoice']) } },
	},
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. company',
		description: "The record's field to watch, as the ERP names it",
		displayOptions: { show: { triggerOn: on(['fieldValue'], ['contact', 'product', 'employee', 'list']) } },
	},
	// The sandbox ERP's invoice states as presets (docs/api-assumptions.md), any other value by expression.
	{
		displayName: 'Value',
		name: 'value',
		type: 'options',
		options: [
			{ name: 'Draft', value: 'draft' },
			{ name: 'Overdue', value: 'overdue' },
			{ name: 'Paid', value: 'paid' },
			{ name: 'Sent', value: 'sent' },
		],
		default: 'paid',
		description: 'The value that starts the workflow when the field takes it. For a value not listed, switch to Expression and type it.',
		displayOptions: { show: { triggerOn: on(['fieldValue'], ['invoice']) } },
	},
	{
		displayName: 'Value',
		name: 'value',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. active',
		description: 'The value that starts the workflow when the field takes it',
		displayOptions: { show: { triggerOn: on(['fieldValue'], ['contact', 'product', 'employee', 'list']) } },
	},
	{
		displayName: 'Products',
		name: 'products',
		type: 'options',
		options: [
			{
				name: 'All Products',
				value: 'all',
				description: "Each poll reads the product list, with each product's total stock when the list carries it; otherwise also the stock of up to Stock Reads per Poll products, in turn",
			},
			{
				name: 'Chosen Products',
				value: 'chosen',
				description: 'Each poll reads only the products listed by ID (one request each), and their stock as for all products',
			},
		],
		default: 'all',
		displayOptions: { show: { triggerOn: on(['lowStock']) } },
	},
	{
		displayName: `Each poll reads the products (one request per ${DEFAULT_PAGE_SIZE}, or one per chosen product) and, when they carry no stock total, the stock of up to Stock Reads per Poll products. What that costs: <a href="${docsPage('triggers.md', 'cost-per-poll')}" target="_blank">Cost per poll</a>.`,
		name: 'stockCostNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { triggerOn: on(['lowStock']) } },
	},
	{
		displayName: 'Product IDs',
		name: 'productIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12, 15, 40',
		description: 'The IDs of the products to watch, separated by commas',
		displayOptions: { show: { triggerOn: on(['lowStock']), products: ['chosen'] } },
	},
	{
		displayName: 'Threshold',
		name: 'thresholdType',
		type: 'options',
		options: [
			{ name: 'A Number', value: 'number', description: 'The same threshold for every product' },
			{
				name: 'A Product Field',
				value: 'field',
				description: "Each product's own threshold, read from one of its fields",
			},
		],
		default: 'field',
		displayOptions: { show: { triggerOn: on(['lowStock']) } },
	},
	{
		displayName: 'Threshold Field',
		name: 'thresholdField',
		type: 'string',
		required: true,
		default: 'low_stock_threshold',
		description: "The product field that holds the product's threshold, as the ERP names it",
		displayOptions: { show: { triggerOn: on(['lowStock']), thresholdType: ['field'] } },
	},
	{
		displayName: 'Threshold Value',
		name: 'threshold',
		type: 'number',
		default: 10,
		description: 'The workflow starts once when the total stock falls below this number, and again only after it has risen to it or above',
		displayOptions: { show: { triggerOn: on(['lowStock']), thresholdType: ['number'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			concurrencyOption,
			{
				displayName: 'Include Data at Top Level',
				name: 'dataAtTopLevel',
				type: 'boolean',
				default: false,
				description: "Whether to put the record's fields beside event and timestamp instead of under data",
			},
			maxRetriesOption,
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 100,
				description: 'How many records to ask the ERP for per page; leave this option out to let the node choose',
			},
			{
				displayName: 'Quantity Field',
				name: 'quantityField',
				type: 'string',
				default: 'quantity',
				description: "The field of a stock record (one per warehouse) that holds the quantity, as the ERP names it",
				displayOptions: { show: { '/triggerOn': on(['lowStock']) } },
			},
			{
				displayName: 'Report Existing on Publish',
				name: 'reportExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after the workflow is published reports what already matches (every record, records already at the value, products already low), once; otherwise it only takes note of them',
				displayOptions: { show: { '/triggerOn': on(['recordAdded', 'recordAddedOrUpdated', 'fieldValue', 'lowStock']) } },
			},
			{
				displayName: 'Stock Field',
				name: 'stockField',
				type: 'string',
				default: '',
				placeholder: 'e.g. stock_total',
				description:
					"The product field holding its total stock, when the ERP's product list carries it; leave empty to let the node find it (it reads the stock of a few products and looks for a product field that equals it on each)",
				displayOptions: { show: { '/triggerOn': on(['lowStock']) } },
			},
			{
				displayName: 'Stock Reads per Poll',
				name: 'stockReadsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_STOCK_READS_PER_POLL,
				description:
					"When the product list carries no stock total: how many products' stock to read per poll, in turn. With 2,000 products and 500, each is read every 4th poll.",
				displayOptions: { show: { '/triggerOn': on(['lowStock']) } },
			},
		],
	},
];
