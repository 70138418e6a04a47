import type { BenchContext } from '../context';
import { categoriseBy, FLOOR_PACKAGE, functionsOf, NODE_PACKAGE, REMOTE_CATEGORIES } from './categories';
import { profiled } from './index';

/** Runs profiled per contender, after the bench's own runs of it. */
const PROFILED_RUNS = 3;
/** The node's functions listed, the costliest first. */
const TOP_FUNCTIONS = 12;

export interface ContenderProfile {
	/** CPU milliseconds of n8n's main process per item (record read, or item completed), by where they went, and in all. */
	perItem_ms: Record<string, number>;
	/** Under the package's own functions, per item (a function's callees included): the ERP node's, or the floor's. */
	functions: Array<{ fn: string; perItem_ms: number }>;
	/** Requests the sandbox held at once: the median over every arrival, and the most, of the profiled runs. */
	medianInFlight: number;
	peakInFlight: number;
}

export type RemoteProfile = Record<'erpNode' | 'floor', ContenderProfile>;

/** A run as the remote workloads observe it (bench/inFlight.ts). */
type Sample = { peakInFlight: number; medianInFlight: number };

const round = (ms: number) => Math.round(ms * 1000) / 1000;

async function profileOne(ctx: BenchContext, run: () => Promise<Sample>, items: number, url: RegExp): Promise<ContenderProfile> {
	const dir = process.env.BENCH_PROFILE_DIR;
	if (!dir) throw new Error('BENCH_PROFILE_DIR is not set: n8n runs without bench/profile/hook.js');
	const samples: Sample[] = [];
	const profile = await profiled(ctx, dir, async () => {
		for (let i = 0; i < PROFILED_RUNS; i++) samples.push(await run());
	});
	const per = (ms: number) => round(ms / (PROFILED_RUNS * items));
	const totals = categoriseBy(profile, REMOTE_CATEGORIES);
	const perItem_ms = Object.fromEntries(Object.entries(totals).map(([name, ms]) => [name, per(ms)]));
	perItem_ms.total = per(Object.values(totals).reduce((sum, ms) => sum + ms, 0));
	return {
		perItem_ms,
		functions: functionsOf(profile, url, TOP_FUNCTIONS).map(({ fn, ms }) => ({ fn, perItem_ms: per(ms) })),
		medianInFlight: Math.max(...samples.map((sample) => sample.medianInFlight)),
		peakInFlight: Math.max(...samples.map((sample) => sample.peakInFlight)),
	};
}

/**
 * Where n8n's main process spends its CPU while the ERP node, then the floor, run a remote workload
 * (PROFILED_RUNS runs of each, in a V8 CPU profile), per item, and under which of the package's functions.
 */
export async function profileRemote(ctx: BenchContext, runs: Record<keyof RemoteProfile, () => Promise<Sample>>, items: number): Promise<RemoteProfile> {
	const erpNode = await profileOne(ctx, runs.erpNode, items, NODE_PACKAGE);
	const floor = await profileOne(ctx, runs.floor, items, FLOOR_PACKAGE);
	const line = (name: string, p: ContenderProfile) =>
		`  profile ${name}: ${Object.entries(p.perItem_ms).map(([category, ms]) => `${category} ${ms}`).join(', ')} ms per item; in flight median ${p.medianInFlight}, most ${p.peakInFlight}`;
	ctx.log(line('erpNode', erpNode));
	ctx.log(line('floor', floor));
	ctx.log(`  the ERP node's functions (ms per item, callees included): ${erpNode.functions.map(({ fn, perItem_ms }) => `${fn} ${perItem_ms}`).join('; ')}`);
	return { erpNode, floor };
}
