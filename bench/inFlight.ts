import type { BenchContext } from './context';

/**
 * The most requests the sandbox held at once, from the arrival times in its log: with a fixed answer time of
 * `latencyMs` (far above its own fraction of a millisecond), a request is in flight from its arrival until
 * `latencyMs` later, so at each arrival the ones in flight are those that came less than `latencyMs` before it.
 */
export function peakInFlight(arrivals: number[], latencyMs: number): number {
	const sorted = [...arrivals].sort((a, b) => a - b);
	let peak = 0;
	let first = 0;
	for (let last = 0; last < sorted.length; last++) {
		while (sorted[first] <= sorted[last] - latencyMs) first++;
		peak = Math.max(peak, last - first + 1);
	}
	return peak;
}

/** Runs `work` with the sandbox's request log emptied first, and answers its result with the peak in flight. */
export async function observingInFlight<T extends object>(ctx: BenchContext, latencyMs: number, work: () => Promise<T>): Promise<T & { peakInFlight: number }> {
	await ctx.sandbox.clearRequests();
	const result = await work();
	const arrivals = (await ctx.sandbox.requests()).map((request) => Date.parse(request.at));
	return { ...result, peakInFlight: peakInFlight(arrivals, latencyMs) };
}
