import { sleep } from '../tooling/host/processes';

// Lets n8n finish what follows an execution (its own bookkeeping, garbage) before the next contender starts.
const SETTLE_MS = 500;

/**
 * One warm-up run per contender, then `runs` rounds in which the contenders take turns, the starting one
 * rotating each round so that none always runs first. Answers the measured samples per contender.
 */
export async function alternate<K extends string, S extends { seconds: number }>(
	contenders: Record<K, () => Promise<S>>,
	runs: number,
	log: (line: string) => void,
): Promise<Record<K, S[]>> {
	const names = Object.keys(contenders) as K[];
	const samples = Object.fromEntries(names.map((name) => [name, [] as S[]])) as Record<K, S[]>;
	const runOnce = async (name: K, label: string) => {
		const sample = await contenders[name]();
		log(`  ${label} ${name}: ${sample.seconds.toFixed(3)} s`);
		await sleep(SETTLE_MS);
		return sample;
	};
	for (const name of names) await runOnce(name, 'warm-up');
	for (let round = 0; round < runs; round++) {
		for (let turn = 0; turn < names.length; turn++) {
			const name = names[(round + turn) % names.length];
			samples[name].push(await runOnce(name, `run ${round + 1}/${runs}`));
		}
	}
	return samples;
}
