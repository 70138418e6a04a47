import type { BenchContext } from './context';
import { median } from './stats';

/**
 * The most requests the sandbox held at once, from the arrival times in its log: with a fixed answer time of
 * `latencyMs` (far above its own fraction of a millisecond), a request is in flight from its arrival until
 * `latencyMs` later, so at each arrival the ones in flight are those that came less than `latencyMs` before it.
 */
function inFlightAtArrivals(arrivals: number[], latencyMs: number): number[] {
	const sorted = [...arrivals].sort((a, b) => a - b);
	const counts: number[] = [];
	let first = 0;
	for (let last = 0; last < sorted.length; last++) {
		while (sorted[first] <= sorted[last] - latencyMs) first++;
		counts.push(last - first + 1);
	}
	return counts;
}

export const peakInFlight = (arrivals: number[], latencyMs: number): number => Math.max(0, ...inFlightAtArrivals(arrivals, latencyMs));

/**
 * Runs `work` with the sandbox's request log emptied first, and answers its result with the peak in flight and the
 * median over every arrival (how full the run kept the wire, not only at its best moment).
 */
export async function observingInFlight<T extends object>(
	ctx: BenchContext,
	latencyMs: number,
	work: () => Promise<T>,
): Promise<T & { peakInFlight: number; medianInFlight: number }> {
	await ctx.sandbox.clearRequests();
	const result = await work();
	const counts = inFlightAtArrivals(
		(await ctx.sandbox.requests()).map((request) => Date.parse(request.at)),
		latencyMs,
	);
	return { ...result, peakInFlight: Math.max(0, ...counts), medianInFlight: counts.length ? median(counts) : 0 };
}
