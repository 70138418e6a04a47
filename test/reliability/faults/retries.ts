import type { RequestChain, StruckTest } from './chains';

/** The waits before the n-th retry of the same request. */
export interface RetryWaits {
	retry: number;
	count: number;
	minMs: number;
	medianMs: number;
	maxMs: number;
}

/** Per method: requests the sandbox received, attempts it struck, and of those how many were sent again. */
export interface MethodEvidence {
	requests: number;
	struck: number;
	sentAgain: number;
}

/** What the request log shows of the node's retries after struck requests. */
export interface RetryEvidence {
	/** Attempts the sandbox faulted or refused with 429 (or, for timeouts, delayed past the timeout). */
	struckRequests: number;
	/** Of them, those followed by another attempt at the same request. */
	retried: number;
	byMethod: Record<string, MethodEvidence>;
	/** The most attempts of one request that were struck. */
	mostStrikesOnOneRequest: number;
	/** From a struck attempt's arrival to the arrival of the next attempt, per retry number. */
	waitsBeforeRetry: RetryWaits[];
}

function waitsOf(retry: number, waits: number[]): RetryWaits {
	const sorted = [...waits].sort((a, b) => a - b);
	return { retry, count: sorted.length, minMs: sorted[0], medianMs: sorted[Math.floor(sorted.length / 2)], maxMs: sorted[sorted.length - 1] };
}

export function retryEvidence(chains: RequestChain[], struck: StruckTest): RetryEvidence {
	const byMethod: Record<string, MethodEvidence> = {};
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
