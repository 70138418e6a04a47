import { REMOTE } from '../../config';
import type { Machine } from '../../machine';
import type { BenchContext } from '../../context';
import { rateLimited, type RateLimitedResult } from '../rateLimited';
import type { RemoteWorkloadResult } from './compare';
import { bulkCreateWorkload, compareCreates, mixedWorkload } from './creates';
import { remoteListAll } from './listAll';

/** The workloads against a sandbox that answers every request `latency_ms` late. */
export interface RemoteResult {
	latency_ms: number;
	/** When and where it ran, when it ran apart from the rest (absent from older runs). */
	date?: string;
	machine?: Machine;
	listAll: RemoteWorkloadResult;
	bulkCreate: RemoteWorkloadResult;
	mixed: RemoteWorkloadResult;
	/** At REMOTE.rateLimitedLatencyMs only. */
	rateLimited?: RateLimitedResult;
}

export async function remote(ctx: BenchContext, latencyMs: number): Promise<RemoteResult> {
	const listAll = await remoteListAll(ctx, latencyMs);
	const bulkCreate = await compareCreates(ctx, latencyMs, bulkCreateWorkload(ctx));
	const mixed = await compareCreates(ctx, latencyMs, mixedWorkload(ctx));
	const limited = latencyMs === REMOTE.rateLimitedLatencyMs ? await rateLimited(ctx, latencyMs, true) : undefined;
	await ctx.sandbox.reset();
	return { latency_ms: latencyMs, listAll, bulkCreate, mixed, ...(limited && { rateLimited: limited }) };
}
