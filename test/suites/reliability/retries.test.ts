import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { Random } from '../../../sandbox/seed/random';
import { scenarioRandom } from '../../reliability/setup/context';
import { requestChains, retryEvidence } from '../../reliability/faults/chains';
import { recordPlan } from '../../reliability/faults/recordFaults';
import { logged } from './fixtures';

// The retry evidence and the record-fault plans the fault scenarios rely on, fed with made-up request logs.

const entry = (seq: number, ms: number, method: string, path: string, status: number | null, extra: Partial<RequestLogEntry> = {}) =>
	logged(seq, method, path, { status, ...extra }, ms);
const refused = { kind: 'rateLimit', source: 'queue', afterCommit: false } as const;
const faultedOr429 = (r: RequestLogEntry) => r.fault !== undefined || r.status === 429;
const evidence = (requests: RequestLogEntry[]) => retryEvidence(requestChains(requests), faultedOr429);

describe('retryEvidence', () => {
	test('waits per retry number, per record; a struck request without a later one is not retried', () => {
		const requests = [
			entry(1, 0, 'PUT', '/contacts/1', 429, { fault: refused }),
			entry(2, 0, 'PUT', '/contacts/2', 429, { fault: refused }),
			entry(3, 600, 'PUT', '/contacts/1', 429, { fault: refused }),
			entry(4, 800, 'PUT', '/contacts/2', 200),
			entry(5, 2100, 'PUT', '/contacts/1', 200),
			entry(6, 2200, 'PUT', '/contacts/3', 429, { fault: refused }),
		];
		expect(evidence(requests)).toEqual({
			struckRequests: 4,
			retried: 3,
			byMethod: { PUT: { requests: 6, struck: 4, sentAgain: 3 } },
			mostStrikesOnOneRequest: 2,
			waitsBeforeRetry: [
				{ retry: 1, count: 2, minMs: 600, medianMs: 800, maxMs: 800 },
				{ retry: 2, count: 1, minMs: 1500, medianMs: 1500, maxMs: 1500 },
			],
		});
	});

	test('orders by arrival (a delayed answer is logged after its retry) and tells creates apart by e-mail', () => {
		const late = { kind: 'latency', source: 'queue', afterCommit: false } as const;
		const requests = [
			entry(1, 1250, 'GET', '/contacts/7', 200),
			entry(2, 0, 'GET', '/contacts/7', 200, { fault: late }),
			entry(3, 0, 'POST', '/contacts', 500, { body: { email: 'a@x.example' }, fault: { kind: 'status', source: 'random', afterCommit: true } }),
			entry(4, 10, 'POST', '/contacts', 201, { body: { email: 'b@x.example' } }),
		];
		expect(evidence(requests)).toMatchObject({ struckRequests: 2, retried: 1, waitsBeforeRetry: [{ retry: 1, count: 1, minMs: 1250 }] });
	});

	test('counts per method: a GET and a PUT of the same record, and list lookups with different queries, are different requests', () => {
		const dropped = { kind: 'drop', source: 'random', afterCommit: false } as const;
		const requests = [
			entry(1, 0, 'GET', '/contacts/1', null, { fault: dropped }),
			entry(2, 300, 'GET', '/contacts/1', 200),
			entry(3, 400, 'PUT', '/contacts/1', 200),
			entry(4, 500, 'GET', '/contacts', 200, { query: { email: 'a@x.example' } }),
			entry(5, 600, 'GET', '/contacts', 200, { query: { email: 'b@x.example' } }),
		];
		expect(requestChains(requests).map((c) => `${c.method} ${c.attempts.length}`)).toEqual(['GET 2', 'PUT 1', 'GET 1', 'GET 1']);
		expect(evidence(requests).byMethod).toEqual({ GET: { requests: 4, struck: 1, sentAgain: 1 }, PUT: { requests: 1, struck: 0, sentAgain: 0 } });
	});
});

describe('requestChains', () => {
	test('the same request after a success is another request: a lookup before a create and the one after its answer was lost', () => {
		const dropped = { kind: 'drop', source: 'random', afterCommit: true, appStatus: 201 } as const;
		const lookup = (seq: number, ms: number, status: number | null, extra: Partial<RequestLogEntry> = {}) =>
			entry(seq, ms, 'GET', '/orders', status, { query: { reference: 'R1', page: '1', per_page: '100' }, ...extra });
		const requests = [
			lookup(1, 0, 200),
			entry(2, 100, 'POST', '/orders', null, { body: { reference: 'R1' }, fault: dropped }),
			lookup(3, 200, null, { fault: { kind: 'drop', source: 'random', afterCommit: false } }),
			lookup(4, 500, 200),
		];
		expect(requestChains(requests).map((c) => `${c.method} ${c.attempts.map((a) => a.seq).join(',')}`)).toEqual(['GET 1', 'GET 3,4', 'POST 2']);
	});
});

describe('recordPlan', () => {
	const groups = [
		{ count: 5, times: 3, within: 10 },
		{ count: 40, times: 1 },
	];

	test('each group gets its count of distinct items, within its range', () => {
		const plan = recordPlan(100, groups, new Random(7));
		expect(plan).toHaveLength(100);
		expect(plan.filter((times) => times === 3)).toHaveLength(5);
		expect(plan.slice(10).filter((times) => times === 3)).toHaveLength(0);
		expect(plan.filter((times) => times === 1)).toHaveLength(40);
		expect(() => recordPlan(10, [{ count: 11, times: 1 }], new Random(7))).toThrow();
	});

	test('the run seed replays the picks of each scenario, and scenarios draw apart', () => {
		const plan = (seed: number, id: string) => recordPlan(1000, groups, scenarioRandom(seed, id));
		expect(plan(42, 'a')).toEqual(plan(42, 'a'));
		expect(plan(42, 'a')).not.toEqual(plan(43, 'a'));
		expect(plan(42, 'a')).not.toEqual(plan(42, 'b'));
	});
});
