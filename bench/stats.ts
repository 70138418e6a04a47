import { performance } from 'node:perf_hooks';

export function median(values: number[]): number {
	if (values.length === 0) throw new Error('median of nothing');
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Seconds, rounded to milliseconds. */
export const seconds = (ms: number): number => Math.round(ms) / 1000;

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
	const started = performance.now();
	const result = await work();
	return { result, seconds: seconds(performance.now() - started) };
}

export const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** The median run's CPU milliseconds per request, to a thousandth, of samples that measured n8n's CPU time. */
export const cpuPerRequest = (samples: Array<{ cpu_ms?: number }>, requests: number): number =>
	Math.round((median(samples.map((sample) => sample.cpu_ms ?? Number.NaN)) / requests) * 1000) / 1000;

/** Each contender's run times in seconds, and their medians. */
export function secondsOf<K extends string>(samples: Record<K, { seconds: number }[]>) {
	const runs = {} as Record<K, number[]>;
	const medians = {} as Record<K, number>;
	for (const name of Object.keys(samples) as K[]) {
		runs[name] = samples[name].map((sample) => sample.seconds);
		medians[name] = median(runs[name]);
	}
	return { runs, medians };
}

/** A progress line with each contender's median. */
export const medianLine = (medians: Record<string, number>): string =>
	`  medians: ${Object.entries(medians)
		.map(([name, value]) => `${name} ${value.toFixed(3)} s`)
		.join(', ')}`;
