import type { RequestLogEntry } from '../../../sandbox/requestLog';

/** All attempts at one request: the first one and the node's retries of it, in the order they arrived. */
export interface RequestChain {
	method: string;
	attempts: RequestLogEntry[];
}

/** Whether the sandbox's fault hit this attempt (what counts depends on the scenario: see rule.ts). */
export type StruckTest = (request: RequestLogEntry) => boolean;

/**
 * The same request asked again: method, path and query, and for creates the body (all creates share one path).
 * Every create of a scenario has its own key in its body, every other item its own record.
 */
const identityOf = (r: RequestLogEntry) => {
	const query = Object.entries(r.query)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
	return `${r.method} ${r.path}?${query} ${r.method === 'POST' ? JSON.stringify(r.body) : ''}`;
};

/** The run's requests grouped into chains. */
export function requestChains(requests: RequestLogEntry[]): RequestChain[] {
	const byIdentity = new Map<string, RequestLogEntry[]>();
	for (const r of requests) {
		const key = identityOf(r);
		const attempts = byIdentity.get(key);
		if (attempts) attempts.push(r);
		else byIdentity.set(key, [r]);
	}
	// `at` is when a request arrived; the log's order is when it was answered (a delayed one after its retry). The
	// node sends a request again only after a failure: the same request after a success is another one (a lookup by
	// key before a create, and the one after its answer was lost).
	const chains: RequestChain[] = [];
	for (const same of byIdentity.values()) {
		for (const attempt of same.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq)) {
			const last = chains.at(-1);
			const previous = last?.attempts.at(-1);
			const retry = last !== undefined && identityOf(last.attempts[0]) === identityOf(attempt) && !succeeded(previous);
			if (retry) last.attempts.push(attempt);
			else chains.push({ method: attempt.method, attempts: [attempt] });
		}
	}
	return chains;
}

const succeeded = (r: RequestLogEntry | undefined) => r !== undefined && r.fault === undefined && r.status !== null && r.status < 300;

/** Chains whose last attempt was struck: the requests the node did not get through. */
export const endedStruck = (chains: RequestChain[], struck: StruckTest) => chains.filter((c) => struck(c.attempts[c.attempts.length - 1]));

/** The waits before the n-th retry of the same request. */
function waitsOf(retry: number, waits: number[]) {
	const sorted = [...waits].sort((a, b) => a - b);
	return { retry, count: sorted.length, minMs: sorted[0], medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted[sorted.length - 1] };
}

/**
 * What the request log shows of the node's retries: per method the requests the sandbox received, the attempts it
 * struck (faulted, refused with 429, or for timeouts delayed past the timeout) and of those the ones sent again; the
 * waits from a struck attempt's arrival to the next attempt's, per retry number.
 */
export function retryEvidence(chains: RequestChain[], struck: StruckTest) {
	const byMethod: Record<string, { requests: number; struck: number; sentAgain: number }> = {};
	const waits: number[][] = [];
	let mostStrikesOnOneRequest = 0;
	for (const { method, attempts } of chains) {
		const counts = (byMethod[method] ??= { requests: 0, struck: 0, sentAgain: 0 });
		counts.requests += attempts.length;
		let strikes = 0;
		attempts.forEach((attempt, i) => {
			if (!struck(attempt)) return;
			counts.struck++;
			const next = attempts[i + 1];
			if (next) {
				counts.sentAgain++;
				(waits[strikes] ??= []).push(Date.parse(next.at) - Date.parse(attempt.at));
			}
			strikes++;
		});
		mostStrikesOnOneRequest = Math.max(mostStrikesOnOneRequest, strikes);
	}
	const methods = Object.values(byMethod);
	return {
		struckRequests: methods.reduce((n, m) => n + m.struck, 0),
		retried: methods.reduce((n, m) => n + m.sentAgain, 0),
		byMethod,
		mostStrikesOnOneRequest,
		waitsBeforeRetry: waits.map((w, i) => waitsOf(i + 1, w)),
	};
}

export type RetryEvidence = ReturnType<typeof retryEvidence>;

/** The chance the suite accepts for a check to fail on a correct node: a scenario is designed to stay below it. */
export const ACCEPTED_CHANCE = 1e-6;

/**
 * The chance that at least one of `chains` requests fails for good, when each attempt is struck with
 * probability `p` independently, the node makes 1 + `maxRetries` attempts, and up to `queued` of them may be
 * struck for certain (faults queued for the request's record): 1 − (1 − p^(1 + maxRetries − queued))^chains.
 */
export function chanceSomeRequestFails(p: number, maxRetries: number, queued: number, chains: number): number {
	const freeAttempts = 1 + maxRetries - queued;
	if (freeAttempts <= 0) return chains > 0 ? 1 : 0;
	const oneFails = p ** freeAttempts;
	// -expm1(n·log1p(-x)) keeps precision where 1 − (1 − x)^n would round to 0.
	return oneFails >= 1 ? 1 : -Math.expm1(chains * Math.log1p(-oneFails));
}

/** P(X < k) for X ~ Binomial(n, p): the chance that a fault drawn n times at rate p strikes fewer than k times. */
export function chanceFewerThan(k: number, n: number, p: number): number {
	if (k <= 0) return 0;
	if (p <= 0) return 1;
	if (p >= 1) return k > n ? 1 : 0;
	let term = (1 - p) ** n;
	let sum = 0;
	for (let i = 0; i < Math.min(k, n + 1); i++) {
		sum += term;
		term *= ((n - i) / (i + 1)) * (p / (1 - p));
	}
	return Math.min(1, sum);
}

/** A chance as people read it: 2.0e-7, or 0 and 1 as they are. */
export const shownChance = (chance: number): string => (chance === 0 || chance === 1 ? String(chance) : chance.toExponential(1));
