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

export interface RateLimitedResult {
	items: number;
	limit_rps: number;
	theoreticalMin_s: number;
	erpNode_s: number;
	/** The worst run's count (the target is 0 in every run). */
	erpNode_failed: number;
	erpNode_duplicates: number;
	httpRequestNode_s: number;
	httpRequestNode_failed: number;
	httpRequestNode_duplicates: number;
	erpNode_concurrency: number;
	samples: Record<'erpNode' | 'httpRequestNode', RateLimitedSample[]>;
}

async function createUnderLimit(ctx: BenchContext, contender: string, workflow: DeployedWorkflow): Promise<RateLimitedSample> {
	await ctx.sandbox.reset();
	await ctx.sandbox.setFaults({ rateLimit: RATE_LIMIT });
	const { tag, rows } = contactRows(`rate-${contender}`, RATE_ITEMS);
	const run = await runWorkflow(ctx.n8n, workflow, { rows });
	const held = await tally(ctx.sandbox, tag, RATE_ITEMS);
	const refused = (await ctx.sandbox.requests()).filter((request) => request.status === 429).length;
	await ctx.sandbox.reset();
	const failed = RATE_ITEMS - (run.count ?? 0);
	return { seconds: run.seconds, failed, missing: held.missing, duplicates: held.duplicates, refused, succeeded: run.status === 200 };
}

/** 1,000 creates against a limit of 50 requests per second (fixed window, Retry-After in whole seconds). */
export async function rateLimited(ctx: BenchContext): Promise<RateLimitedResult> {
	const limit_rps = RATE_LIMIT.limit / (RATE_LIMIT.windowMs / 1000);
	ctx.log(`rateLimited: ${RATE_ITEMS} contacts at ${limit_rps} requests/s`);
	const erp = await deploy(ctx.n8n, erpCreate(ctx.credential, RATE_CONCURRENCY));
	const http = await deploy(ctx.n8n, httpCreate(ctx.credential, ctx.api.baseUrl, true));
	const samples = await alternate(
		{
			erpNode: () => createUnderLimit(ctx, 'erpNode', erp),
			httpRequestNode: () => createUnderLimit(ctx, 'httpRequestNode', http),
		},
		ctx.runs,
		ctx.log,
	);
	const worst = (name: keyof typeof samples, field: 'failed' | 'duplicates') => Math.max(...samples[name].map((sample) => sample[field]));
	const { medians } = secondsOf(samples);
	return {
		items: RATE_ITEMS,
		limit_rps,
		theoreticalMin_s: RATE_ITEMS / limit_rps,
		erpNode_s: medians.erpNode,
		erpNode_failed: worst('erpNode', 'failed'),
		erpNode_duplicates: worst('erpNode', 'duplicates'),
		httpRequestNode_s: medians.httpRequestNode,
		httpRequestNode_failed: worst('httpRequestNode', 'failed'),
		httpRequestNode_duplicates: worst('httpRequestNode', 'duplicates'),
		erpNode_concurrency: RATE_CONCURRENCY,
		samples,
	};
}
