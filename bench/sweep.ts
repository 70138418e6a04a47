import type { BenchContext } from './context';
import { median } from './stats';

/**
 * Tries the ERP node at each Concurrency: `prepare(concurrency)` deploys its workflow and answers one run of
 * it, which is called once more to warm up at the first Concurrency, then `runsEach` times at each. Answers the
 * fastest Concurrency and the median seconds at each.
 */
export async function sweepConcurrency(
	ctx: BenchContext,
	concurrencies: number[],
	runsEach: number,
	prepare: (concurrency: number) => Promise<() => Promise<{ seconds: number }>>,
): Promise<{ best: number; seconds: Record<string, number> }> {
	const seconds: Record<string, number> = {};
	let best = concurrencies[0];
	for (const [index, concurrency] of concurrencies.entries()) {
		const runOnce = await prepare(concurrency);
		if (index === 0) await runOnce();
		const runs: number[] = [];
		for (let run = 0; run < runsEach; run++) runs.push((await runOnce()).seconds);
		seconds[concurrency] = median(runs);
		ctx.log(`  sweep: Concurrency ${concurrency}: ${seconds[concurrency].toFixed(3)} s`);
		if (seconds[concurrency] < seconds[best]) best = concurrency;
	}
	return { best, seconds };
}
