import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TransportOptions } from '../../transport/types';
import { DEFAULT_TRANSPORT_OPTIONS } from '../../transport/types';

const LIST_OPERATIONS = ['getAll', 'getStock', 'getPayroll'];

/** The node's Options: how requests are sent, plus output choices of some operations. */
export const optionsProperty: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 1,
			description:
				'How many requests to send to the ERP at the same time: items side by side, and for Return All the pages read ahead. Higher is faster for many items or records; when the ERP rate-limits, all of them wait together.',
		},
		{
			displayName: 'Fetch Full Record',
			name: 'fetchFullRecord',
			type: 'boolean',
			default: false,
			description:
				'Whether to read the whole contact after creating it (the ERP answers a create with only the ID, first name and creation time). Should that read fail, the item still succeeds with the create answer and a fullRecordError field, so it is never created twice.',
			displayOptions: { show: { '/resource': ['contact'], '/operation': ['create'] } },
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 5,
			description:
				'How often to retry a request the ERP rate-limited (429), or a read, update or delete that failed on a server or network error. Creates, sends and mark-paids are never repeated after an unclear failure, so nothing is written twice.',
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

/** The options that shape the whole run; Concurrency bounds both the items side by side and the requests. */
export type RunOptions = Pick<TransportOptions, 'concurrency' | 'maxRetries' | 'timeoutMs'>;

function wholeNumber(this: IExecuteFunctions, value: unknown, label: string, min: number, max: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
		throw new NodeOperationError(
			this.getNode(),
			`${label} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`,
			{ itemIndex: 0 },
		);
	}
	return value;
}

/** Options that shape the whole run are read once, from the first item. */
export function readRunOptions(this: IExecuteFunctions): RunOptions {
	const options = this.getNodeParameter('options', 0, {}) as {
		concurrency?: unknown;
		maxRetries?: unknown;
		timeout?: unknown;
	};
	return {
		concurrency: wholeNumber.call(this, options.concurrency ?? DEFAULT_TRANSPORT_OPTIONS.concurrency, 'Concurrency', 1, 50),
		maxRetries: wholeNumber.call(this, options.maxRetries ?? DEFAULT_TRANSPORT_OPTIONS.maxRetries, 'Max Retries', 0, 10),
		timeoutMs: wholeNumber.call(this, options.timeout ?? DEFAULT_TRANSPORT_OPTIONS.timeoutMs, 'Timeout', 1, 3_600_000),
	};
}
