import type { RequestLogEntry } from '../../sandbox/requestLog';
import { recordPlan } from './recordFaults';
import { retryEvidence } from './retries';

// The retry evidence and the record-fault plans the fault scenarios rely on, fed with made-up request logs.

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
const entry = (seq: number, ms: number, method: string, path: string, status: number, extra: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
	seq,
	at: at(ms),
	method,
	path,
	query: {},
	body: null,
	status,
	auth: 'full',
	...extra,
});
const refused = { kind: 'rateLimit', source: 'queue', afterCommit: false } as const;

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
		expect(retryEvidence(requests)).toEqual({
			struckRequests: 4,
			retried: 3,
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
		expect(retryEvidence(requests)).toMatchObject({ struckRequests: 2, retried: 1, waitsBeforeRetry: [{ retry: 1, count: 1, minMs: 1250 }] });
	});
});

describe('recordPlan', () => {
	test('each group gets its count of distinct items, within its range', () => {
		const plan = recordPlan(100, [{ count: 5, times: 3, within: 10 }, { count: 40, times: 1 }]);
		expect(plan).toHaveLength(100);
		expect(plan.filter((times) => times === 3)).toHaveLength(5);
		expect(plan.slice(10).filter((times) => times === 3)).toHaveLength(0);
		expect(plan.filter((times) => times === 1)).toHaveLength(40);
		expect(() => recordPlan(10, [{ count: 11, times: 1 }])).toThrow();
	});
});
