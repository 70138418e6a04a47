import type { RequestLogEntry } from '../../../sandbox/requestLog';

/** All attempts at one request: the first one and the node's retries of it, in the order they arrived. */
export interface RequestChain {
	method: string;
	attempts: RequestLogEntry[];
}

/** Whether the sandbox's fault hit this attempt (what counts depends on the scenario: see rule.ts). */
export type StruckTest = (request: RequestLogEntry) => boolean;

/**
 * The same request asked again: method, path and query, and for creates the e-mail (all creates share one
 * path). Every create of a scenario has its own e-mail, every other item its own record.
 */
const identityOf = (r: RequestLogEntry) => {
	const query = Object.entries(r.query)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([name, value]) => `${name}=${value}`)
		.join('&');
	const email = r.method === 'POST' ? String((r.body as { email?: unknown } | null)?.email) : '';
	return `${r.method} ${r.path}?${query} ${email}`;
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
	// `at` is when a request arrived; the log's order is when it was answered (a delayed one after its retry).
	return [...byIdentity.values()].map((attempts) => ({
		method: attempts[0].method,
		attempts: attempts.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq),
	}));
}

/** Chains per method: how many distinct requests the node made. */
export function chainsByMethod(chains: RequestChain[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const { method } of chains) counts[method] = (counts[method] ?? 0) + 1;
	return counts;
}

/** Chains whose last attempt was struck: the requests the node did not get through. */
export const endedStruck = (chains: RequestChain[], struck: StruckTest) => chains.filter((c) => struck(c.attempts[c.attempts.length - 1]));

