import type { RequestLogEntry } from '../../../sandbox/requestLog';
import { ACCEPTED_CHANCE, chanceFewerThan, chanceSomeRequestFails, type RequestChain } from '../../reliability/faults/chains';
import { retryArithmetic, ruleOf, strikeMinimum, struckTest, unfinishedRequests } from '../../reliability/faults/rule';
import { FAULT_SCENARIOS, type FaultScenario, titleOf } from '../../reliability/faults/scenarios';
import { logged } from './fixtures';

// The rule every fault scenario is judged by, and the arithmetic behind its Max Retries, fed with made-up
// scenarios and request logs. Expected figures are worked out by hand in the comments.

const scenario = (overrides: Partial<FaultScenario>): FaultScenario => ({
	id: 'made-up',
	kind: 'update',
	items: 1000,
	faults: {},
	options: { concurrency: 5, maxRetries: 9 },
	...overrides,
});

const attempt = (seq: number, method: string, status: number | null, fault?: RequestLogEntry['fault']) =>
	logged(seq, method, '/contacts', { status, ...(fault ? { fault } : {}) });
const chain = (method: string, ...attempts: RequestLogEntry[]): RequestChain => ({ method, attempts });
const chains = (count: number, method: string) => Array.from({ length: count }, (_, i) => chain(method, attempt(i, method, 200)));
const dropped = { kind: 'drop', source: 'random', afterCommit: true } as const;

describe('probability', () => {
	test('the chance that some request fails all its attempts', () => {
		// One request, p = 0.5, one retry: both attempts struck with 0.25.
		expect(chanceSomeRequestFails(0.5, 1, 0, 1)).toBeCloseTo(0.25, 12);
		// Two requests: 1 − 0.75² = 0.4375.
		expect(chanceSomeRequestFails(0.5, 1, 0, 2)).toBeCloseTo(0.4375, 12);
		// p = 0.1, Max Retries 9: 1e-10 per request, about 1e-7 over 1,000 (no rounding to 0).
		expect(chanceSomeRequestFails(0.1, 9, 0, 1000) / 1e-7).toBeCloseTo(1, 4);
		// Queued strikes are certain: 3 queued and Max Retries 5 leave 3 attempts to chance; 6 queued leave none.
		expect(chanceSomeRequestFails(0.5, 5, 3, 1)).toBeCloseTo(0.125, 12);
		expect(chanceSomeRequestFails(0, 5, 3, 1000)).toBe(0);
		expect(chanceSomeRequestFails(0, 5, 6, 1000)).toBe(1);
	});

	test('the chance that a binomial count falls short', () => {
		// Four fair coins: fewer than 3 heads in 1 + 4 + 6 of 16 cases.
		expect(chanceFewerThan(3, 4, 0.5)).toBeCloseTo(11 / 16, 12);
		expect(chanceFewerThan(1, 10, 0.5)).toBeCloseTo(1 / 1024, 12);
		expect(chanceFewerThan(500, 1000, 1)).toBe(0);
	});
});

describe('the rule: which scenarios must end with every item succeeded', () => {
	test('creates may end unresolved only after an unclear failure, and only without a key or a lookup that can get through', () => {
		expect(ruleOf(scenario({ kind: 'create', faults: { errorRate: 0.2, errorStatus: 500 } })).everyItemSucceeds).toBe(false);
		expect(ruleOf(scenario({ kind: 'create', faults: { dropRate: 0.1 } })).everyItemSucceeds).toBe(false);
		expect(ruleOf(scenario({ kind: 'create', faults: { latencyMs: 3000 }, options: { concurrency: 5, timeout: 1000 } })).everyItemSucceeds).toBe(false);
		expect(ruleOf(scenario({ kind: 'create', keyed: true, faults: { errorRate: 0.2, errorStatus: 500 } })).everyItemSucceeds).toBe(true);
		// A key settles nothing when the lookup fails as surely as the create.
		expect(ruleOf(scenario({ kind: 'create', keyed: true, faults: { latencyMs: 3000 }, options: { concurrency: 5, timeout: 1000 } })).everyItemSucceeds).toBe(false);
		expect(ruleOf(scenario({ kind: 'create', faults: { errorRate: 0.2, errorStatus: 429 } })).everyItemSucceeds).toBe(true);
		expect(ruleOf(scenario({ kind: 'create', faults: { rateLimit: { limit: 40, windowMs: 1000 } } })).everyItemSucceeds).toBe(true);
		// A delay shorter than the timeout is no fault.
		expect(ruleOf(scenario({ kind: 'create', faults: { latencyMs: 500 }, options: { concurrency: 5, timeout: 1000 } })).everyItemSucceeds).toBe(true);
	});

	test('reads, updates and deletes must all succeed under unclear failures, not under a 4xx rejection', () => {
		for (const kind of ['read', 'update', 'delete'] as const) {
			expect(ruleOf(scenario({ kind, faults: { errorRate: 0.1, errorStatus: 503 } })).everyItemSucceeds).toBe(true);
			expect(ruleOf(scenario({ kind, faults: { errorRate: 0.1, errorStatus: 400 } })).everyItemSucceeds).toBe(false);
		}
	});

	test('what counts as struck: faults, 429s, and answers delayed past the timeout only', () => {
		const late = { kind: 'latency', source: 'queue', afterCommit: false } as const;
		const delayed = (delayMs: number) =>
			scenario({ kind: 'read', recordFaults: { method: 'GET', fault: { kind: 'latency', delayMs }, groups: [] }, options: { concurrency: 5, timeout: 1000 } });
		expect(struckTest(delayed(3000))(attempt(1, 'GET', 200, late))).toBe(true);
		expect(struckTest(delayed(500))(attempt(1, 'GET', 200, late))).toBe(false);
		expect(struckTest(scenario({}))(attempt(1, 'PUT', 429))).toBe(true);
		expect(struckTest(scenario({}))(attempt(1, 'PUT', 200))).toBe(false);
		const everyAnswerLate = scenario({ kind: 'create', faults: { latencyMs: 3000 }, options: { concurrency: 5, timeout: 1000 } });
		expect(struckTest(everyAnswerLate)(attempt(1, 'POST', 201))).toBe(true);
	});

	test('a request ended by the fault is an error item, unless it is a keyed create the node settles by a lookup', () => {
		const log = [chain('POST', attempt(1, 'POST', null, dropped)), chain('GET', attempt(2, 'GET', null, dropped), attempt(3, 'GET', 200)), chain('PUT', attempt(4, 'PUT', null, dropped))];
		const struck = struckTest(scenario({}));
		expect(unfinishedRequests(scenario({ kind: 'create' }), log, struck)).toBe(2);
		expect(unfinishedRequests(scenario({ kind: 'create', keyed: true }), log, struck)).toBe(1);
	});
});

describe('the arithmetic behind Max Retries', () => {
	test('random faults: p from every knob, n from the requests per method', () => {
		// p = 1 − 0.9 × 0.8 = 0.28; Max Retries 1: 0.28² = 0.0784 per request; 3 requests: 1 − 0.9216³.
		const s = scenario({ faults: { dropRate: 0.1, nonJsonRate: 0.2 }, options: { concurrency: 5, maxRetries: 1 } });
		const a = retryArithmetic(s, [...chains(2, 'GET'), ...chains(1, 'PUT')]);
		expect(a.perAttempt).toBeCloseTo(0.28, 12);
		expect(a.requests).toEqual({ GET: 2, PUT: 1 });
		expect(a.chance).toBeCloseTo(1 - 0.9216 ** 3, 12);
		expect(a.text).toContain('3 requests of this run (2 GET, 1 PUT)');
	});

	test('queued faults strike for certain; a rate-limit window is argued, not computed; no Max Retries, no claim', () => {
		const queued = (times: number) =>
			scenario({ recordFaults: { method: 'PUT', fault: { kind: 'rateLimit', retryAfter: null }, groups: [{ count: 10, times }] }, options: { concurrency: 5, maxRetries: 5 } });
		expect(retryArithmetic(queued(3), chains(10, 'PUT')).chance).toBe(0);
		expect(retryArithmetic(queued(6), chains(10, 'PUT')).chance).toBe(1);
		expect(retryArithmetic(scenario({ faults: { rateLimit: { limit: 40, windowMs: 1000 } } }), chains(10, 'POST')).chance).toBeNull();
		expect(retryArithmetic(scenario({ faults: { errorRate: 0.1 }, options: { concurrency: 5 } }), chains(10, 'PUT')).chance).toBe(1);
	});

	test('every scenario that must succeed stays below the accepted chance, even at two requests per item', () => {
		const designed = FAULT_SCENARIOS.filter((s) => ruleOf(s).everyItemSucceeds).map((s) => ({
			id: s.id,
			chance: retryArithmetic(s, chains(2 * s.items, 'GET')).chance ?? 0,
		}));
		expect(designed.length).toBeGreaterThan(0);
		expect(designed.filter((d) => d.chance >= ACCEPTED_CHANCE)).toEqual([]);
	});

	test('random faults must strike at least half their expected count, which a correct run misses with a negligible chance', () => {
		const minimum = strikeMinimum(scenario({ faults: { errorRate: 0.1 } }), 0);
		expect(minimum.count).toBe(50);
		expect(minimum.chanceFewer).toBeLessThan(ACCEPTED_CHANCE);
		expect(strikeMinimum(scenario({}), 530).count).toBe(530);
		for (const s of FAULT_SCENARIOS) expect(strikeMinimum(s, 0).chanceFewer ?? 0).toBeLessThan(ACCEPTED_CHANCE);
	});
});

describe('titles', () => {
	const dropped = { dropRate: 0.1, faultTiming: 'after' } as const;
	const storm = { method: 'PUT', fault: { kind: 'rateLimit', retryAfter: null }, groups: [{ count: 10, times: 3 }, { count: 500, times: 1 }] } as const;
	test.each([
		// Custom API Call: its request, and whether a Key Field settles a create.
		[{ kind: 'create', subject: 'order', keyed: true, faults: dropped }, '10% of connections dropped after the ERP committed them — Custom API Call POST /orders with Key Field reference, Max Retries 9'],
		[{ kind: 'create', subject: 'order', faults: dropped }, /POST \/orders without a Key Field/],
		[{ kind: 'read', subject: 'order', faults: dropped }, /— Custom API Call GET \/orders\/\{id\}, Max Retries 9$/],
		// The figures of the settings.
		[{ kind: 'update', faults: { errorRate: 0.1, errorStatus: 500, faultTiming: 'after' } }, '10% of requests answered 500 after the ERP committed them — update contacts, Max Retries 9'],
		[{ kind: 'read', faults: dropped, options: { concurrency: 5 } }, '10% of connections dropped — read contacts by ID'],
		[
			{ kind: 'update', label: '429 storm', recordFaults: storm, options: { concurrency: 50, maxRetries: 5 } },
			'429 storm: PUT requests for 510 contacts refused with 429 without Retry-After (10 three times, 500 once) — update contacts, Max Retries 5',
		],
	] as Array<[Partial<FaultScenario>, string | RegExp]>)('%j', (overrides, title) => {
		expect(titleOf(scenario(overrides))).toEqual(typeof title === 'string' ? title : expect.stringMatching(title));
	});
});
