import type { INodeProperties } from 'n8n-workflow';

import { CONCURRENCY_LIMIT } from './transport/types';

/** How every node sends its requests: the options the ERP node and the ERP Polling Trigger both show. */

/** Retries stay bounded by the transport's wait budget per request too (five minutes). */
export const MAX_RETRIES_LIMIT = 30;

/** Options › Concurrency, shared with the ERP Polling Trigger (which reads pages and stock with it). */
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: CONCURRENCY_LIMIT },
	default: 5,
	description:
		'How many records are sent to (or read from) the ERP at the same time; all of them wait together when the ERP says to slow down. The default 5 is several times faster than one at a time.',
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
