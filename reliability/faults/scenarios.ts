import type { FaultSettings } from '../../sandbox/faults';
import type { RateLimitConfig } from '../../sandbox/rateLimit';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import { recordPlan, type RecordFaults } from './recordFaults';
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
	/** The scenario fails when the fault struck fewer times than this (default 1). */
	minStruck?: number;
	/** Faults queued for single records, on top of `faults`; every one of them must strike. */
	recordFaults?: RecordFaults;
	/** The fault is one the node retries: every item must succeed, and every faulted request be followed by its retry. */
	allSucceed?: boolean;
	/** No Retry-After: the node's waits before the 1st, 2nd, 3rd… retry of a request must grow. */
	backOffGrows?: boolean;
}

const faulted = (requests: RequestLogEntry[]) => requests.filter((r) => r.fault).length;
const refused = (requests: RequestLogEntry[]) => requests.filter((r) => r.status === 429).length;

/**
 * The fault scenarios. Writes are hit after the ERP committed them (the ambiguous case that duplicates data
 * when a client retries a create). Every scenario has 1,000 items; On Error: Continue is on. Updates, reads and
 * deletes work on 1,000 of 1,100 seeded contacts: the other 100 must stay as they were.
 */
export const FAULT_SCENARIOS: FaultScenario[] = [
	{
		// The node paces itself by X-RateLimit-Remaining here, so few 429s strike: the storms are the next two.
		id: 'rate-limit-window',
		title: 'A rate limit of 40 requests per second with X-RateLimit headers: create contacts',
		kind: 'create',
		items: 1000,
		faults: { rateLimit: { limit: 40, windowMs: 1000 } },
		options: { concurrency: 10 },
		struck: refused,
		allSucceed: true,
	},
	{
		// No header warns the node. Every refusal holds all requests in flight for its second, so about one
		// round of 50 requests a second; at 30%, 11 refusals in a row (Max Retries 10) are improbable.
		id: 'rate-limit-storm',
		title: '429 storm: 30% of requests refused with 429 (Retry-After: 1) at random: create contacts',
		kind: 'create',
		items: 1000,
		faults: { errorRate: 0.3, errorStatus: 429, errorBody: 'json' },
		options: { concurrency: 50, maxRetries: 10 },
		struck: refused,
		minStruck: 300,
		allSucceed: true,
	},
	{
		// The sandbox's random 429 always names a wait, so these are queued per record. Refused three times only
		// among the first 50 items: their longer waits then overlap instead of stalling the run again and again.
		id: 'rate-limit-storm-no-retry-after',
		title: '429 storm without Retry-After (exponential back-off with jitter): update contacts, 500 refused once and 10 three times',
		kind: 'update',
		items: 1000,
		faults: {},
		recordFaults: {
			method: 'PUT',
			fault: { kind: 'rateLimit', retryAfter: null },
			plan: (items) => recordPlan(items, [{ count: 10, times: 3, within: 50 }, { count: 500, times: 1 }]),
		},
		options: { concurrency: 50, maxRetries: 5 },
		struck: refused,
		allSucceed: true,
		backOffGrows: true,
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
		// A read is retried after a timeout; the sandbox delays only the first request for each of 200 records.
		id: 'latency-over-timeout-read',
		title: '20% of contacts answered 3 s late (once) against a 1 s timeout: read contacts by ID',
		kind: 'read',
		items: 1000,
		faults: {},
		recordFaults: {
			method: 'GET',
			fault: { kind: 'latency', delayMs: 3000 },
			plan: (items) => recordPlan(items, [{ count: 200, times: 1 }]),
		},
		options: { concurrency: 25, timeout: 1000 },
		struck: faulted,
		allSucceed: true,
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
	{
		// An update is idempotent: retried after the 502 (up to 10 times, so that every item gets through).
		id: 'html-502-update',
		title: '20% of requests answered by a proxy\'s HTML 502 page after the ERP committed them: update contacts',
		kind: 'update',
		items: 1000,
		faults: { nonJsonRate: 0.2, faultTiming: 'after' },
		options: { concurrency: 10, maxRetries: 10 },
		struck: faulted,
		minStruck: 150,
		allSucceed: true,
	},
];
