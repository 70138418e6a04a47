import { alternate } from './alternate';
import type { BenchContext } from './context';
import { secondsOf } from './stats';

export interface Sweep {
	/** The Concurrency with the lowest median. */
	best: number;
	/** Median seconds at each Concurrency tried. */
	seconds: Record<string, number>;
	/** Every measured run at each Concurrency, in seconds. */
	runs: Record<string, number[]>;
}

/**
 * Tries the ERP node at each Concurrency: `prepare(concurrency)` deploys its workflow and answers one run of it.
 * The settings take turns like contenders (one warm-up each, then `runsEach` rounds, the first rotating), so
 * that none pays for the warm-up or for a busy moment alone; the best is picked from the medians.
 */
export async function sweepConcurrency(
	ctx: BenchContext,
	concurrencies: number[],
	runsEach: number,
	prepare: (concurrency: number) => Promise<() => Promise<{ seconds: number }>>,
): Promise<Sweep> {
	const label = (concurrency: number) => `Concurrency ${concurrency}`;
	const settings: Record<string, () => Promise<{ seconds: number }>> = {};
	for (const concurrency of concurrencies) settings[label(concurrency)] = await prepare(concurrency);
	const { runs, medians } = secondsOf(await alternate(settings, runsEach, ctx.log));
	const best = concurrencies.reduce((fastest, concurrency) => (medians[label(concurrency)] < medians[label(fastest)] ? concurrency : fastest));
	return {
		best,
		seconds: Object.fromEntries(concurrencies.map((concurrency) => [concurrency, medians[label(concurrency)]])),
		runs: Object.fromEntries(concurrencies.map((concurrency) => [concurrency, runs[label(concurrency)]])),
	};
}
