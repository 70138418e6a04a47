import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TransportOptions } from '../../transport/types';
import { DEFAULT_TRANSPORT_OPTIONS } from '../../transport/types';

export const CONCURRENCY_LIMIT = 50;
/** Retries stay bounded by the transport's wait budget per request too (five minutes). */
export const MAX_RETRIES_LIMIT = 30;

const LIST_OPERATIONS = ['getAll', 'getStock', 'getPayroll'];

/** Options › Concurrency, shared with the ERP Polling Trigger (which reads pages and stock with it). */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: CONCURRENCY_LIMIT },
	default: 5,
	description:
		'How many records are sent to (or read from) the ERP at the same time; all of them wait together when the ERP says to slow down. The default 5 reads pages about 4× faster than one at a time from an ERP 100 ms away and writes some 50 records a second there, within common rate limits.',
};

/** Options › Max Retries, shared with the ERP Polling Trigger. */
export const maxRetriesOption: INodeProperties = {
	displayName: 'Max Retries',
	name: 'maxRetries',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_RETRIES_LIMIT },
	default: 5,
	description:
		"How often to try a request again when the ERP is busy or briefly unreachable; a write is only repeated once the ERP has proved it did not happen. Raise it when many executions share the ERP's rate limit (queue mode).",
};

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
				'Whether to read the whole contact after creating it, since the ERP answers a create with only its ID, first name and creation time',
			displayOptions: { show: { '/resource': ['contact'], '/operation': ['create', 'upsert'] } },
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

/** The options that shape the whole run. */
export type RunOptions = Pick<TransportOptions, 'concurrency' | 'maxRetries' | 'timeoutMs' | 'pageSize'>;

function wholeNumber(this: IExecuteFunctions, value: unknown, label: string, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw new NodeOperationError(this.getNode(), `${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`, {
			itemIndex: 0,
		});
	}
	return value;
}

/** Options that shape the whole run are read once, from the first item. */
export function readRunOptions(this: IExecuteFunctions): RunOptions {
	const options = this.getNodeParameter('options', 0, {}) as Record<string, unknown>;
	return {
		concurrency: wholeNumber.call(this, options.concurrency ?? DEFAULT_TRANSPORT_OPTIONS.concurrency, 'Concurrency', 1, CONCURRENCY_LIMIT),
		maxRetries: wholeNumber.call(this, options.maxRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRetries, 'Max Retries', 0, MAX_RETRIES_LIMIT),
		timeoutMs: wholeNumber.call(this, options.timeout ?? DEFAULT_TRANSPORT_OPTIONS.timeoutMs, 'Timeout', 1, 3_600_000),
		pageSize: options.pageSize === undefined ? undefined : wholeNumber.call(this, options.pageSize, 'Page Size', 1, 100_000),
	};
}
