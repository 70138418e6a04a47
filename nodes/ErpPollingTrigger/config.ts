import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_RETRIES_LIMIT } from '../shared/requestOptions';
import { pathProblem } from '../shared/apiPath';
import { toNumber } from '../shared/values';
import type { Threshold } from '../shared/lowStock';
import { shownUrl } from '../shared/transport/errors';
import { CONCURRENCY_LIMIT, DEFAULT_TRANSPORT_OPTIONS } from '../shared/transport/types';
import { isWatch, type TriggerOn, type WatchedResource } from './watches';

/**
 * Stock Reads per Poll unless set: small enough to fit, with the list scan and a rate limit, inside the 36 s n8n
 * 2.41's durable scheduler gives a poll by default (bench/README.md has the timings).
 */
export const DEFAULT_STOCK_READS_PER_POLL = 500;


/** What the user asked the trigger to watch, read and checked once per poll. */
export interface WatchConfig {
	resource: WatchedResource;
	/** The list endpoint, e.g. `/invoices`; for any list, List Path. */
	path: string;
	/** What one record is called in messages and event names: the resource, or `record` for any list. */
	noun: string;
	/** The field that tells records apart: `id`, or ID Field for any list. */
	idField: string;
	triggerOn: TriggerOn;
	/** Fields to Watch; empty = every field. */
	fields: string[];
	field: string;
	value: string;
	/** Chosen products; undefined = all. */
	productIds?: number[];
	threshold: Threshold;
	quantityField: string;
	/** Stock Field: the product field holding its total stock; undefined = let the node find one. */
	stockField?: string;
	/** Stock Reads per Poll: at most this many products' stock read one by one a poll (when no stock field). */
	stockReadsPerPoll: number;
	reportExisting: boolean;
	dataAtTopLevel: boolean;
	concurrency: number;
	maxRetries: number;
	pageSize?: number;
}

const PATHS: Record<Exclude<WatchedResource, 'list'>, string> = {
	contact: '/contacts',
	invoice: '/invoices',
	product: '/products',
	employee: '/employees',
};

function names(raw: unknown): string[] {
	return String(raw ?? '')
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

/** List Path, checked by the Custom API Call's rules for its Path before any request (no URL shown with its query). */
function readListPath(node: INode, raw: unknown): string {
	const path = typeof raw === 'string' ? raw.trim() : '';
	const found = pathProblem(path, 'Enter the path alone, and filter the records in the workflow, e.g. with an If node.', 'e.g. /orders');
	if (!found) return path;
	throw new NodeOperationError(node, shownUrl(`List Path ${found.problem}`), { description: found.fix, failure: { cause: 'configuration-invalid' } });
}

export function readConfig(this: IPollFunctions): WatchConfig {
	const node = this.getNode();
	const fail = (message: string) => new NodeOperationError(node, message);
	// Trigger On names the resource and the watch: `product:lowStock`.
	const watch = String(this.getNodeParameter('triggerOn'));
	if (!isWatch(watch)) throw fail(`Trigger On "${watch}" is not one of its choices: choose one of them, e.g. Contact Added`);
	const [resource, triggerOn] = watch.split(':') as [WatchedResource, TriggerOn];
	const options = this.getNodeParameter('options', {}) as IDataObject;

	const text = (name: string, label: string, example: string): string => {
		const value = String(this.getNodeParameter(name, '') ?? '').trim();
		if (value === '') throw fail(`${label} is empty: enter ${example}`);
		return value;
	};
	const anyList = resource === 'list';
	const config: WatchConfig = {
		resource,
		path:
			resource === 'list'
				? readListPath(node, this.getNodeParameter('listPath', ''))
				: PATHS[resource],
		noun: anyList ? 'record' : resource,
		idField: anyList ? text('idField', 'ID Field', 'the field that identifies each record of the list, e.g. id') : 'id',
		triggerOn,
		fields: [],
		field: '',
		value: '',
		threshold: { kind: 'number', value: 0 },
		quantityField: 'quantity',
		stockReadsPerPoll: DEFAULT_STOCK_READS_PER_POLL,
		reportExisting: options.reportExisting === true,
		dataAtTopLevel: options.dataAtTopLevel === true,
		concurrency: wholeNumber(options.concurrency ?? DEFAULT_TRANSPORT_OPTIONS.concurrency, 'Concurrency', 1, CONCURRENCY_LIMIT, fail),
		maxRetries: wholeNumber(options.maxRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRetries, 'Max Retries', 0, MAX_RETRIES_LIMIT, fail),
		pageSize: options.pageSize === undefined ? undefined : wholeNumber(options.pageSize, 'Page Size', 1, 100_000, fail),
	};

	if (triggerOn === 'recordUpdated' || triggerOn === 'recordAddedOrUpdated') {
		config.fields = [...new Set(names(this.getNodeParameter('fieldsToWatch', '')))];
	} else if (triggerOn === 'fieldValue') {
		config.field = text('field', 'Field', 'the name of the field to watch, e.g. status');
		config.value = text('value', 'Value', 'the value that starts the workflow, e.g. paid');
	} else if (triggerOn === 'lowStock') {
		if (this.getNodeParameter('products', 'all') === 'chosen') config.productIds = productIds(this.getNodeParameter('productIds', ''), fail);
		config.threshold =
			this.getNodeParameter('thresholdType', 'field') === 'number'
				? { kind: 'number', value: thresholdNumber(this.getNodeParameter('threshold', 10), fail) }
				: { kind: 'field', field: text('thresholdField', 'Threshold Field', 'the product field holding the threshold, e.g. low_stock_threshold') };
		config.quantityField = String(options.quantityField ?? 'quantity').trim();
		if (config.quantityField === '') throw fail('Quantity Field is empty: enter the stock record field holding the quantity, e.g. quantity');
		const stockField = String(options.stockField ?? '').trim();
		if (stockField !== '') config.stockField = stockField;
		if (options.stockReadsPerPoll !== undefined) config.stockReadsPerPoll = wholeNumber(options.stockReadsPerPoll, 'Stock Reads per Poll', 1, 100_000, fail);
	}
	return config;
}

/**
 * The parts of the configuration that give the stored state its meaning: when one changes, the state of the
 * old configuration is dropped and a new baseline taken (so a new Field or Value never compares with the old).
 */
export function stateKey(config: WatchConfig): string {
	const { resource, path, idField, triggerOn, fields, field, value, productIds: ids, threshold, quantityField } = config;
	const list = resource === 'list' ? { path, idField } : {};
	return JSON.stringify({ resource, ...list, triggerOn, fields, field, value, ids, threshold, quantityField });
}

function wholeNumber(value: unknown, label: string, min: number, max: number, fail: (m: string) => Error): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw fail(`${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
	}
	return value;
}

function thresholdNumber(raw: unknown, fail: (m: string) => Error): number {
	const value = toNumber(raw);
	if (value === undefined) throw fail(`Threshold Value must be a number, e.g. 10, not ${JSON.stringify(raw)}`);
	return value;
}

function productIds(raw: unknown, fail: (m: string) => Error): number[] {
	const listed = names(raw);
	if (listed.length === 0) throw fail('Product IDs is empty: enter the IDs of the products to watch, e.g. 12, 15');
	const ids = listed.map((id) => {
		if (!/^[1-9]\d*$/.test(id)) throw fail(`Product IDs: "${id}" is not a product ID; enter whole numbers separated by commas, e.g. 12, 15`);
		return Number(id);
	});
	return [...new Set(ids)];
}
