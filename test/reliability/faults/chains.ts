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

/** Chains per method: how many distinct requests the node made. */
export function chainsByMethod(chains: RequestChain[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { method } of chains) counts[method] = (counts[method] ?? 0) + 1;
	return counts;
}

/** Chains whose last attempt was struck: the requests the node did not get through. */
export const endedStruck = (chains: RequestChain[], struck: StruckTest) => chains.filter((c) => struck(c.attempts[c.attempts.length - 1]));

