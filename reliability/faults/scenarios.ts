import type { FaultSettings } from '../../sandbox/faults';
import type { RateLimitConfig } from '../../sandbox/rateLimit';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import type { Tally } from './tally';

export type BatchKind = 'create' | 'update' | 'read' | 'delete';

export interface FaultScenario {
	id: string;
	title: string;
	kind: BatchKind;
	items: number;
	faults: Partial<FaultSettings> & { rateLimit?: RateLimitConfig | null };
	/** The ERP node's Options. */
	options: { concurrency: number; timeout?: number; maxRetries?: number };
	/** How often the fault struck in this run: the proof that the scenario tested something. */
	struck: (requests: RequestLogEntry[], tally: Tally) => number;
}

const faulted = (requests: RequestLogEntry[]) => requests.filter((r) => r.fault).length;

/**
 * The fault scenarios. Writes are hit after the ERP committed them (the ambiguous case that duplicates data
 * when a client retries a create). Every scenario has 1,000 items; On Error: Continue is on. Updates, reads and
 * deletes work on 1,000 of 1,100 seeded contacts: the other 100 must stay as they were.
 */
export const FAULT_SCENARIOS: FaultScenario[] = [
	{
		id: 'rate-limit-storm',
		title: '429 storm: create contacts against a rate limit of 40 requests per second',
		kind: 'create',
		items: 1000,
		faults: { rateLimit: { limit: 40, windowMs: 1000 } },
		options: { concurrency: 10 },
		struck: (requests) => requests.filter((r) => r.status === 429).length,
	},
	{
		id: 'server-errors-create',
		title: '20% of requests answered 500 after the ERP committed them: create contacts',
		kind: 'create',
		items: 1000,
		faults: { errorRate: 0.2, errorStatus: 500, errorBody: 'json', faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
	{
		id: 'server-errors-update',
		title: '20% of requests answered 500 after the ERP committed them: update contacts',
		kind: 'update',
		items: 1000,
		faults: { errorRate: 0.2, errorStatus: 500, errorBody: 'json', faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
	{
		id: 'dropped-connections-create',
		title: '10% of connections dropped after the ERP committed the request: create contacts',
		kind: 'create',
		items: 1000,
		faults: { dropRate: 0.1, faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
	{
		id: 'dropped-connections-read',
		title: '10% of connections dropped: read contacts by ID',
		kind: 'read',
		items: 1000,
		faults: { dropRate: 0.1, faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
	{
		id: 'dropped-connections-delete',
		title: '10% of connections dropped after the ERP committed the request: delete contacts',
		kind: 'delete',
		items: 1000,
		faults: { dropRate: 0.1, faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
	{
		// Every request times out, and a create is never repeated after a timeout: 1,000 items at one second
		// each would take 17 minutes one at a time, so 25 run at once (about 40 s).
		id: 'latency-over-timeout-create',
		title: 'Every answer 3 s late against a 1 s timeout: create contacts',
		kind: 'create',
		items: 1000,
		faults: { latencyMs: 3000 },
		options: { concurrency: 25, timeout: 1000 },
		struck: (_requests, tally) => Object.entries(tally.errorMessages).filter(([message]) => /did not answer within/.test(message)).reduce((n, [, count]) => n + count, 0),
	},
	{
		id: 'html-502-create',
		title: '20% of requests answered by a proxy\'s HTML 502 page after the ERP committed them: create contacts',
		kind: 'create',
		items: 1000,
		faults: { nonJsonRate: 0.2, faultTiming: 'after' },
		options: { concurrency: 5 },
		struck: faulted,
	},
];
