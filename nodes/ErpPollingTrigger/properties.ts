import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { concurrencyOption, maxRetriesOption, resourceProperty } from '../Erp/actions/common.descriptions';
import { DEFAULT_STOCK_READS_PER_POLL } from './config';

export type WatchedResource = 'contact' | 'invoice' | 'product' | 'employee';

export type TriggerOn = 'recordAdded' | 'recordUpdated' | 'recordAddedOrUpdated' | 'fieldValue' | 'lowStock';

const CHOICES: Record<TriggerOn, { name: string; description: string }> = {
	fieldValue: { name: 'Field Becomes a Value', description: "A record's field takes a value, e.g. an invoice's status becomes paid" },
	recordAdded: { name: 'Record Added', description: 'A record with an ID not seen before' },
	recordAddedOrUpdated: { name: 'Record Added or Updated', description: 'A new record, or a change to one already seen' },
	recordUpdated: { name: 'Record Updated', description: 'A change to a record already seen' },
	lowStock: { name: 'Stock Below Threshold', description: "A product's total stock over its warehouses falls below a threshold" },
};

/** What each resource can be watched for, and the choice it starts with. */
const WATCHES: Record<WatchedResource, { choices: TriggerOn[]; default: TriggerOn }> = {
	contact: { choices: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'], default: 'recordAdded' },
	employee: { choices: ['fieldValue', 'recordAdded'], default: 'recordAdded' },
	invoice: { choices: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated'], default: 'fieldValue' },
	product: { choices: ['fieldValue', 'recordAdded', 'recordAddedOrUpdated', 'recordUpdated', 'lowStock'], default: 'lowStock' },
};

/** Version 1: Trigger On per resource, below Resource. */
function triggerOnProperty(resource: WatchedResource): INodeProperties {
	const { choices, default: chosen } = WATCHES[resource];
	return {
		displayName: 'Trigger On',
		name: 'triggerOn',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@version': [1], resource: [resource] } },
		options: choices.map((value) => ({ value, ...CHOICES[value] })).sort((a, b) => a.name.localeCompare(b.name)),
		default: chosen,
	};
}

const RESOURCES: WatchedResource[] = ['contact', 'employee', 'invoice', 'product'];

/**
 * Every watch of version 1.1 as `resource:triggerOn`, with its own entry in n8n's node panel (the option's
 * `action`): n8n lists a trigger's entries from its first property named Trigger On, and an entry can set only that
 * one property, so one property names the resource and the watch together.
 */
const WATCH_ENTRIES: Record<TriggerOn, { name: (resource: string) => string; action: (resource: string) => string }> = {
	recordAdded: { name: (r) => `${r} Added`, action: (r) => `On new ${r}` },
	recordUpdated: { name: (r) => `${r} Updated`, action: (r) => `On ${r} updated` },
	recordAddedOrUpdated: { name: (r) => `${r} Added or Updated`, action: (r) => `On ${r} added or updated` },
	fieldValue: { name: (r) => `${r} Field Becomes a Value`, action: (r) => `On ${r} field becomes a value` },
	lowStock: { name: (r) => `${r} Stock Below Threshold`, action: (r) => `On ${r} stock below threshold` },
};

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `resource:triggerOn` for each resource (default: all) that can be watched for each of these. */
function watchValues(triggerOns: TriggerOn[], resources: WatchedResource[] = RESOURCES): string[] {
	return resources.flatMap((resource) => WATCHES[resource].choices.filter((t) => triggerOns.includes(t)).map((t) => `${resource}:${t}`));
}

const watchProperty: INodeProperties = {
	displayName: 'Trigger On',
	name: 'triggerOn',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { '@version': [{ _cnd: { gte: 1.1 } }] } },
	options: RESOURCES.flatMap((resource) =>
		WATCHES[resource].choices.map((t) => ({
			name: WATCH_ENTRIES[t].name(capitalized(resource)),
			value: `${resource}:${t}`,
			action: WATCH_ENTRIES[t].action(resource),
			description: CHOICES[t].description,
		})),
	).sort((a, b) => a.name.localeCompare(b.name)),
	default: 'invoice:fieldValue',
};

/** The Trigger On values (both versions) for these watches, for a parameter's displayOptions. */
const on = (...triggerOns: TriggerOn[]): string[] => [...triggerOns, ...watchValues(triggerOns)];

/** The value a field must take: the sandbox ERP's invoice states as presets (docs/api-assumptions.md), any other value by expression. */
const invoiceValue = (show: IDisplayOptions['show']): INodeProperties => ({
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
	displayOptions: { show },
});

const otherValue = (show: IDisplayOptions['show']): INodeProperties => ({
	displayName: 'Value',
	name: 'value',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. active',
	description: 'The value that starts the workflow when the field takes it',
	displayOptions: { show },
});

export const properties: INodeProperties[] = [
	{
		displayName:
			'This trigger asks the ERP for changes at each poll time, so it works wherever n8n runs (no public URL needed) and catches up after n8n was down. For instant events, and when the ERP can reach n8n, use the ERP Trigger instead.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	watchProperty,
	{ ...resourceProperty('invoice'), displayOptions: { show: { '@version': [1] } } },
	...(['contact', 'invoice', 'product', 'employee'] as const).map(triggerOnProperty),
	{
		displayName: 'Fields to Watch',
		name: 'fieldsToWatch',
		type: 'string',
		default: '',
		placeholder: 'e.g. email, phone',
		description:
			"Field names, separated by commas, whose changes start the workflow; leave empty to watch every field. Listing fields also gives each change's previous value.",
		displayOptions: { show: { triggerOn: on('recordUpdated', 'recordAddedOrUpdated') } },
	},
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		required: true,
		default: 'status',
		placeholder: 'e.g. status',
		description: "The record's field to watch, as the ERP names it",
		displayOptions: { show: { triggerOn: ['fieldValue', ...watchValues(['fieldValue'], ['invoice'])] } },
	},
	// Version 1.1 but invoices: the other resources' records have no status (in the sandbox).
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. company',
		description: "The record's field to watch, as the ERP names it",
		displayOptions: { show: { triggerOn: watchValues(['fieldValue'], ['contact', 'product', 'employee']) } },
	},
	invoiceValue({ resource: ['invoice'], triggerOn: ['fieldValue'] }),
	otherValue({ resource: ['contact', 'product', 'employee'], triggerOn: ['fieldValue'] }),
	// Version 1.1 has no Resource: the same two Values, shown by the watch.
	invoiceValue({ triggerOn: watchValues(['fieldValue'], ['invoice']) }),
	otherValue({ triggerOn: watchValues(['fieldValue'], ['contact', 'product', 'employee']) }),
	{
		displayName: 'Products',
		name: 'products',
		type: 'options',
		options: [
			{
				name: 'All Products',
				value: 'all',
				description:
					"Each poll reads the product list. When the list carries each product's total stock, that is all (one request per 100 products); otherwise it also reads the stock of at most Stock Reads per Poll products (500 unless set), one request each, in turn, so each product is checked at least every ceil(products ÷ 500) polls.",
			},
			{
				name: 'Chosen Products',
				value: 'chosen',
				description: 'Each poll reads only the products listed by ID (one request each), and their stock as for all products',
			},
		],
		default: 'all',
		displayOptions: { show: { triggerOn: on('lowStock') } },
	},
	{
		displayName:
			"How the stock is read: when the ERP's product list carries each product's total stock (the Stock Field named under Options, or one the node finds by comparing the list with the stock of a few products), one scan of the product list a poll. Otherwise at most K products' stock per poll, one request per product (K is Stock Reads per Poll, 500 unless set), in turn, so each product is checked at least every ceil(products ÷ K) polls: 2,000 products every 4 polls. The first poll reads as many as its time allows; a product it could not read is taken as it is when first read, not reported. Choose products, or poll less often, when the ERP limits requests.",
		name: 'stockCostNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { triggerOn: on('lowStock') } },
	},
	{
		displayName: 'Product IDs',
		name: 'productIds',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 12, 15, 40',
		description: 'The IDs of the products to watch, separated by commas',
		displayOptions: { show: { triggerOn: on('lowStock'), products: ['chosen'] } },
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
		displayOptions: { show: { triggerOn: on('lowStock') } },
	},
	{
		displayName: 'Threshold Field',
		name: 'thresholdField',
		type: 'string',
		required: true,
		default: 'low_stock_threshold',
		description: "The product field that holds the product's threshold, as the ERP names it",
		displayOptions: { show: { triggerOn: on('lowStock'), thresholdType: ['field'] } },
	},
	{
		displayName: 'Threshold Value',
		name: 'threshold',
		type: 'number',
		default: 10,
		description: 'The workflow starts once when the total stock falls below this number, and again only after it has risen to it or above',
		displayOptions: { show: { triggerOn: on('lowStock'), thresholdType: ['number'] } },
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
				displayOptions: { show: { '/triggerOn': on('lowStock') } },
			},
			{
				displayName: 'Report Existing on Publish',
				name: 'reportExisting',
				type: 'boolean',
				default: false,
				description:
					'Whether the first poll after the workflow is published reports what already matches (every record, records already at the value, products already low), once; otherwise it only takes note of them',
				displayOptions: { show: { '/triggerOn': on('recordAdded', 'recordAddedOrUpdated', 'fieldValue', 'lowStock') } },
			},
			{
				displayName: 'Stock Field',
				name: 'stockField',
				type: 'string',
				default: '',
				placeholder: 'e.g. stock_total',
				description:
					"The product field holding its total stock, when the ERP's product list carries it; leave empty to let the node find it (it reads the stock of a few products and looks for a product field that equals it on each)",
				displayOptions: { show: { '/triggerOn': on('lowStock') } },
			},
			{
				displayName: 'Stock Reads per Poll',
				name: 'stockReadsPerPoll',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_STOCK_READS_PER_POLL,
				description:
					"When the product list does not carry the stock: at most this many products' stock read per poll, in turn, so each product is checked at least every ceil(products ÷ this) polls. 500 takes about 10 s against an ERP 100 ms away at Concurrency 5.",
				displayOptions: { show: { '/triggerOn': on('lowStock') } },
			},
		],
	},
];
