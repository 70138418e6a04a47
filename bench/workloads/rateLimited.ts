import { alternate } from '../alternate';
import { RATE_CONCURRENCY, RATE_ITEMS, RATE_LIMIT } from '../config';
import { contactRows, tally } from '../contacts';
import type { BenchContext } from '../context';
import { deploy, runWorkflow, type DeployedWorkflow } from '../n8nRun';
import { secondsOf } from '../stats';
import { erpCreate, httpCreate } from '../workflows';

export interface RateLimitedSample {
	seconds: number;
	/** Items the workflow did not complete: all of them when the execution failed. */
	failed: number;
	/** Items the sandbox holds no contact for. */
	missing: number;
	duplicates: number;
	/** Requests the sandbox refused with 429. */
	refused: number;
	/** Whether n8n reported the execution as a success. */
	succeeded: boolean;
}

export type RateContender = 'erpNode' | 'httpRequestNodeBatching' | 'httpRequestNode';

export interface RateLimitedResult {
	items: number;
	limit_rps: number;
	theoreticalMin_s: number;
	/** The sandbox's answer time for every request. */
	latency_ms: number;
	erpNode_s: number;
	/** The worst run's count (the target is 0 in every run). */
	erpNode_failed: number;
	erpNode_duplicates: number;
	/** The HTTP Request node with Retry On Fail. */
	httpRequestNode_s: number;
	httpRequestNode_failed: number;
	httpRequestNode_duplicates: number;
	/** The HTTP Request node with Batching set to the limit (remote runs only). */
	httpRequestNodeBatching_s?: number;
	httpRequestNodeBatching_failed?: number;
	httpRequestNodeBatching_duplicates?: number;
	erpNode_concurrency: number;
	samples: Partial<Record<RateContender, RateLimitedSample[]>> & Record<'erpNode' | 'httpRequestNode', RateLimitedSample[]>;
}

async function createUnderLimit(ctx: BenchContext, contender: string, workflow: DeployedWorkflow, latencyMs: number): Promise<RateLimitedSample> {
	await ctx.sandbox.reset();
	await ctx.sandbox.setFaults({ rateLimit: RATE_LIMIT, latencyMs });
	const { tag, rows } = contactRows(`rate-${contender}`, RATE_ITEMS);
	const run = await runWorkflow(ctx.n8n, workflow, { rows });
	const held = await tally(ctx.sandbox, tag, RATE_ITEMS);
	const refused = (await ctx.sandbox.requests()).filter((request) => request.status === 429).length;
	await ctx.sandbox.reset();
	const failed = RATE_ITEMS - (run.count ?? 0);
	return { seconds: run.seconds, failed, missing: held.missing, duplicates: held.duplicates, refused, succeeded: run.status === 200 };
}

/**
 * 1,000 creates against a limit of 50 requests per second (fixed window, Retry-After in whole seconds), the
 * sandbox answering `latencyMs` late. `withBatching` adds the HTTP Request node with Batching set to the limit
 * (50 items, then a pause of one window), as a user who knows the limit would set it.
 */
export async function rateLimited(ctx: BenchContext, latencyMs = 0, withBatching = false): Promise<RateLimitedResult> {
	const limit_rps = RATE_LIMIT.limit / (RATE_LIMIT.windowMs / 1000);
	ctx.log(`rateLimited${latencyMs ? ` at ${latencyMs} ms` : ''}: ${RATE_ITEMS} contacts at ${limit_rps} requests/s`);
	const run = async (contender: RateContender, workflow: Parameters<typeof deploy>[1]) => {
		const deployed = await deploy(ctx.n8n, workflow);
		return () => createUnderLimit(ctx, contender, deployed, latencyMs);
	};
	const contenders: Record<string, () => Promise<RateLimitedSample>> = {
		erpNode: await run('erpNode', erpCreate(ctx.credential, RATE_CONCURRENCY)),
		httpRequestNode: await run('httpRequestNode', httpCreate(ctx.credential, ctx.api.baseUrl, { retryOnFail: true })),
	};
	if (withBatching) {
		const batching = { size: RATE_LIMIT.limit, intervalMs: RATE_LIMIT.windowMs };
		contenders.httpRequestNodeBatching = await run('httpRequestNodeBatching', httpCreate(ctx.credential, ctx.api.baseUrl, { batching }));
	}
	const samples = (await alternate(contenders, ctx.runs, ctx.log)) as RateLimitedResult['samples'];
	const worst = (name: RateContender, field: 'failed' | 'duplicates') => Math.max(...(samples[name] ?? []).map((sample) => sample[field]));
	const { medians } = secondsOf<string>(samples);
	return {
		items: RATE_ITEMS,
		limit_rps,
		theoreticalMin_s: RATE_ITEMS / limit_rps,
		latency_ms: latencyMs,
		erpNode_s: medians.erpNode,
		erpNode_failed: worst('erpNode', 'failed'),
		erpNode_duplicates: worst('erpNode', 'duplicates'),
		httpRequestNode_s: medians.httpRequestNode,
		httpRequestNode_failed: worst('httpRequestNode', 'failed'),
		httpRequestNode_duplicates: worst('httpRequestNode', 'duplicates'),
		...(samples.httpRequestNodeBatching && {
			httpRequestNodeBatching_s: medians.httpRequestNodeBatching,
			httpRequestNodeBatching_failed: worst('httpRequestNodeBatching', 'failed'),
			httpRequestNodeBatching_duplicates: worst('httpRequestNodeBatching', 'duplicates'),
		}),
		erpNode_concurrency: RATE_CONCURRENCY,
		samples,
	};
}
