import type { FaultSettings } from '../../../sandbox/faults';
import type { RateLimitConfig } from '../../../sandbox/rateLimit';
import type { RecordFaults } from './recordFaults';
import { fieldsParameter } from '../../../tooling/host/fields';
import { byId } from '../../../tooling/host/workflows';


/**
 * One fault scenario. Its title, the rule it is judged by (must every item succeed?) and the arithmetic behind
 * its Max Retries are derived from these settings (titleOf below, rule.ts), never typed beside them.
 */
export interface FaultScenario {
	id: string;
	/** A name for the kind of trouble, without figures (they come from the settings), e.g. "429 storm". */
	label?: string;
	kind: BatchKind;
	/** What the items work on: contacts through the node's own operations (default), or orders through Custom API Call. */
	subject?: keyof typeof SUBJECTS;
	items: number;
	faults: Partial<FaultSettings> & { rateLimit?: RateLimitConfig | null };
	/** The ERP node's Options. Max Retries is set wherever the scenario relies on retries: its arithmetic uses it. */
	options: { concurrency: number; timeout?: number; maxRetries?: number };
	/** Faults queued for single records, on top of `faults`; every one of them must strike. */
	recordFaults?: RecordFaults;
	/**
	 * Creates of a record with a natural key (for Custom API Call, a Key Field): the node resolves an
	 * unclear failure by looking the key up, so no item may end as "the ERP may have done it" and every item must succeed.
	 */
	keyed?: boolean;
	/** No Retry-After: the node's shortest waits before the 1st, 2nd, 3rd… retry of a request must grow. */
	backOffGrows?: boolean;
}

/**
 * The fault scenarios. Writes are hit after the ERP committed them (the ambiguous case that duplicates data
 * when a client retries a create). Contacts are keyed by e-mail: the node settles an unclear create by looking
 * the e-mail up. Updates, reads and deletes work on seeded contacts, and more that no item is about
 * must stay as they were (runScenario.ts).
 *
 * Where every fault is one the node gets past, Max Retries r is chosen so that, at a rate p per attempt, the
 * chance that some request fails all its 1 + r attempts stays below 1e-6 per run: 1 − (1 − p^(r+1))^n for the n
 * distinct requests the run makes (counted per method from the request log, so an update made of a GET and a
 * PUT counts twice). At p = 0.1, r = 9 gives 1e-10 per request: 1e-7 for 1,000 requests, 2e-7 for 2,000.
 * The run computes and checks it (rule.ts); docs/reliability.md shows it per scenario.
 */
export const FAULT_SCENARIOS: FaultScenario[] = [
	// The node paces itself by X-RateLimit-Remaining and learns a window of whole seconds without a refusal:
	// only its first 50 requests, which leave together before any answer, meet 429s (10 of them at least).
	// The storms are the next two.
	{ id: 'rate-limit-window', kind: 'create', keyed: true, items: 1000, faults: { rateLimit: { limit: 40, windowMs: 1000 } }, options: { concurrency: 50, maxRetries: 5 } },
	// No header warns the node. Every refusal holds all requests in flight for its second.
	{ id: 'rate-limit-storm', label: '429 storm', kind: 'create', keyed: true, items: 1000, faults: { errorRate: 0.1, errorStatus: 429, errorBody: 'json' }, options: { concurrency: 50, maxRetries: 9 } },
	// The sandbox's random 429 always names a wait, so these are queued per record. Refused three times only
	// among the first 50 items: their longer waits then overlap instead of stalling the run again and again.
	{ id: 'rate-limit-storm-no-retry-after', label: '429 storm', kind: 'update', items: 1000, faults: {}, recordFaults: { method: 'PUT', fault: { kind: 'rateLimit', retryAfter: null }, groups: [{ count: 10, times: 3, within: 50 }, { count: 500, times: 1 }] }, options: { concurrency: 50, maxRetries: 5 }, backOffGrows: true },
	{ id: 'server-errors-create', kind: 'create', keyed: true, items: 1000, faults: { errorRate: 0.1, errorStatus: 500, errorBody: 'json', faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'server-errors-update', kind: 'update', items: 1000, faults: { errorRate: 0.1, errorStatus: 500, errorBody: 'json', faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'dropped-connections-create', kind: 'create', keyed: true, items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'dropped-connections-read', kind: 'read', items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'dropped-connections-delete', kind: 'delete', items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	// Every request times out, the lookup that would settle a create as well: every item stays unresolved.
	// Max Retries 0 keeps it to two timeouts per item (the create and one lookup), 25 items at once.
	{ id: 'latency-over-timeout-create', kind: 'create', keyed: true, items: 1000, faults: { latencyMs: 3000 }, options: { concurrency: 25, timeout: 1000, maxRetries: 0 } },
	// A read is retried after a timeout; the sandbox delays only the first request for each of 200 records.
	{ id: 'latency-over-timeout-read', kind: 'read', items: 1000, faults: {}, recordFaults: { method: 'GET', fault: { kind: 'latency', delayMs: 3000 }, groups: [{ count: 200, times: 1 }] }, options: { concurrency: 25, timeout: 1000, maxRetries: 5 } },
	{ id: 'html-502-create', kind: 'create', keyed: true, items: 1000, faults: { nonJsonRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'html-502-update', kind: 'update', items: 1000, faults: { nonJsonRate: 0.1, faultTiming: 'after' }, options: { concurrency: 10, maxRetries: 9 } },

	// Custom API Call on the sandbox's orders extension, an endpoint the API document does not list: the
	// same transport, so the same rules. A POST with Key Field reference is looked up before it is sent and settled by
	// a second lookup after an unclear failure; without one it is never sent again. References are unique in the ERP,
	// so a POST sent again after the ERP saved one shows in the request log (counted as written twice).
	{ id: 'custom-rate-limit-storm-create', label: '429 storm', kind: 'create', subject: 'order', keyed: true, items: 1000, faults: { errorRate: 0.1, errorStatus: 429, errorBody: 'json' }, options: { concurrency: 50, maxRetries: 9 } },
	{ id: 'custom-server-errors-create', kind: 'create', subject: 'order', keyed: true, items: 1000, faults: { errorRate: 0.1, errorStatus: 500, errorBody: 'json', faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'custom-server-errors-update', kind: 'update', subject: 'order', items: 1000, faults: { errorRate: 0.1, errorStatus: 503, errorBody: 'json', faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'custom-dropped-connections-create', kind: 'create', subject: 'order', keyed: true, items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	// Without a Key Field nothing can settle a POST whose answer was lost: each such item ends as an error that says
	// the ERP may have done it, and none is sent again.
	{ id: 'custom-dropped-connections-create-no-key', kind: 'create', subject: 'order', items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
	{ id: 'custom-dropped-connections-read', kind: 'read', subject: 'order', items: 1000, faults: { dropRate: 0.1, faultTiming: 'after' }, options: { concurrency: 5, maxRetries: 9 } },
];

/** What a batch's input items ask, in kinds of work. */
export type BatchKind = 'create' | 'update' | 'read' | 'delete';

/** A record as the sandbox stores it, compared by its fields. */
export type StoredRecord = { id: number };

/** A field of a record (undefined: no such record). */
export const fieldOf = (record: StoredRecord | undefined, name: string): unknown => (record as Record<string, unknown> | undefined)?.[name];

/**
 * What a fault scenario's items work on, and through which operation of the ERP node: contacts through the node's
 * own operations, or orders (the sandbox's extension, which the API document does not list) through Custom API Call.
 * Each input item carries `key` (a create's natural key), `first`, `id` or `value`; the parameters read them.
 */
export interface Subject {
	records: 'contacts' | 'orders';
	/** The list the records are at, where a create's lookup by its key goes. */
	list: string;
	/** A create's natural key, in its body and in its lookup's query. */
	key: string;
	/** Whether the ERP refuses a second record with the key (422): a create sent again then shows in the log only. */
	uniqueKey: boolean;
	/** The field an update sets. */
	changed: string;
	/** The work in a scenario's title and setup. */
	work: Record<BatchKind, string>;
	parameters(kind: BatchKind, keyed: boolean): Record<string, unknown>;
}

const byIdFromItem = byId('={{ $json.id }}');
const customCall = (method: string, path: string, extra: Record<string, unknown> = {}) => ({ resource: 'customApiCall', operation: 'call', method, path, ...extra });

export const SUBJECTS: Record<'contact' | 'order', Subject> = {
	contact: {
		records: 'contacts',
		list: '/contacts',
		key: 'email',
		uniqueKey: false,
		changed: 'company',
		work: { create: 'create contacts', update: 'update contacts', read: 'read contacts by ID', delete: 'delete contacts' },
		parameters: (kind) => {
			if (kind === 'create') return { resource: 'contact', operation: 'create', columns: fieldsParameter('contact', { first_name: '={{ $json.first }}', email: '={{ $json.key }}' }) };
			if (kind === 'update') return { resource: 'contact', operation: 'update', contactId: byIdFromItem, updateFields: { company: '={{ $json.value }}' } };
			return { resource: 'contact', operation: kind === 'read' ? 'get' : 'delete', contactId: byIdFromItem };
		},
	},
	order: {
		records: 'orders',
		list: '/orders',
		key: 'reference',
		uniqueKey: true,
		changed: 'notes',
		work: {
			create: 'Custom API Call POST /orders',
			update: 'Custom API Call PUT /orders/{id}',
			read: 'Custom API Call GET /orders/{id}',
			delete: 'Custom API Call DELETE /orders/{id}',
		},
		parameters: (kind, keyed) => {
			if (kind === 'create') {
				const body = '={{ { reference: $json.key, customer: $json.first, total: 10 } }}';
				return customCall('POST', '/orders', { body, ...(keyed ? { keyField: 'reference' } : {}) });
			}
			if (kind === 'update') return customCall('PUT', '=/orders/{{ $json.id }}', { body: '={{ { notes: $json.value } }}' });
			return customCall(kind === 'read' ? 'GET' : 'DELETE', '=/orders/{{ $json.id }}');
		},
	},
};

export const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
const seconds = (ms: number) => `${ms / 1000} s`;
const TIMES = ['never', 'once', 'twice', 'three times'];
export const times = (n: number) => TIMES[n] ?? `${n} times`;

function recordFaultWords({ method, fault, groups }: RecordFaults, timeout: number | undefined): string {
	const against = timeout === undefined ? '' : ` against a ${seconds(timeout)} timeout`;
	const what =
		fault.kind === 'rateLimit'
			? `refused with 429${fault.retryAfter === null ? ' without Retry-After' : ''}`
			: fault.kind === 'latency'
				? `answered ${seconds(fault.delayMs ?? 1000)} late${against}`
				: fault.kind === 'drop'
					? 'dropped'
					: `answered ${fault.status ?? (fault.kind === 'html' ? 502 : 500)}${fault.kind === 'html' ? ' (HTML page)' : ''}`;
	const contacts = groups.reduce((n, g) => n + g.count, 0);
	return `${method} requests for ${contacts} contacts ${what} (${groups.map((g) => `${g.count} ${times(g.times)}`).join(', ')})`;
}

/** What goes wrong in the scenario and what the node does meanwhile, in words made from its settings. */
export function titleOf(scenario: FaultScenario): string {
	const { faults: f, options, kind } = scenario;
	const committed = f.faultTiming === 'after' && kind !== 'read' ? ' after the ERP committed them' : '';
	const words: string[] = [];
	if (f.rateLimit) words.push(`a rate limit of ${f.rateLimit.limit} requests per ${seconds(f.rateLimit.windowMs)} with X-RateLimit headers`);
	if (f.dropRate) words.push(`${percent(f.dropRate)} of connections dropped${committed}`);
	if (f.nonJsonRate) words.push(`${percent(f.nonJsonRate)} of requests answered by a proxy's HTML 502 page${committed}`);
	if (f.errorRate) {
		const status = f.errorStatus ?? 500;
		words.push(status === 429 ? `${percent(f.errorRate)} of requests refused with 429 and Retry-After` : `${percent(f.errorRate)} of requests answered ${status}${committed}`);
	}
	if (f.latencyMs) words.push(`every answer ${seconds(f.latencyMs)} late${options.timeout === undefined ? '' : ` against a ${seconds(options.timeout)} timeout`}`);
	if (scenario.recordFaults) words.push(recordFaultWords(scenario.recordFaults, options.timeout));
	const trouble = words.join('; ');
	const described = scenario.label ? `${scenario.label}: ${trouble}` : trouble.charAt(0).toUpperCase() + trouble.slice(1);
	const retries = options.maxRetries === undefined ? '' : `, Max Retries ${options.maxRetries}`;
	const subject = SUBJECTS[scenario.subject ?? 'contact'];
	const keyField = scenario.subject === 'order' && kind === 'create' ? (scenario.keyed ? ` with Key Field ${subject.key}` : ' without a Key Field') : '';
	return `${described} — ${subject.work[kind]}${keyField}${retries}`;
}
