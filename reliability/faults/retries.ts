import type { RequestLogEntry } from '../../sandbox/requestLog';

/** The waits before the n-th retry of the same request. */
export interface RetryWaits {
	retry: number;
	count: number;
	minMs: number;
	medianMs: number;
	maxMs: number;
}

/** What the request log shows of the node's retries after faulted requests. */
export interface RetryEvidence {
	/** Requests the sandbox faulted or refused with 429. */
	struckRequests: number;
	/** Of them, those followed by another request for the same thing. */
	retried: number;
	/** From a faulted request's arrival to the arrival of the next one for the same thing, per retry number. */
	waitsBeforeRetry: RetryWaits[];
}

/** The same thing asked again: method and path, and for creates the e-mail (all creates share one path). */
const target = (r: RequestLogEntry) => `${r.method} ${r.path} ${r.method === 'POST' ? String((r.body as { email?: unknown } | null)?.email) : ''}`;

const struck = (r: RequestLogEntry) => r.fault !== undefined || r.status === 429;

function waitsOf(retry: number, waits: number[]): RetryWaits {
	const sorted = [...waits].sort((a, b) => a - b);
	return { retry, count: sorted.length, minMs: sorted[0], medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted[sorted.length - 1] };
}

export function retryEvidence(requests: RequestLogEntry[]): RetryEvidence {
	const byTarget = new Map<string, RequestLogEntry[]>();
	for (const r of requests) {
		const key = target(r);
		const attempts = byTarget.get(key);
		if (attempts) attempts.push(r);
		else byTarget.set(key, [r]);
	}
	let retried = 0;
	const waits: number[][] = [];
	for (const attempts of byTarget.values()) {
		// `at` is when a request arrived; the log's order is when it was answered (a delayed one after its retry).
		attempts.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);
		let faultsSoFar = 0;
		for (let i = 0; i < attempts.length - 1; i++) {
			if (!struck(attempts[i])) continue;
			retried++;
			(waits[faultsSoFar] ??= []).push(Date.parse(attempts[i + 1].at) - Date.parse(attempts[i].at));
			faultsSoFar++;
		}
	}
	return { struckRequests: requests.filter(struck).length, retried, waitsBeforeRetry: waits.map((w, i) => waitsOf(i + 1, w)) };
}
