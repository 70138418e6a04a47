import { alternate } from '../alternate';
import { BULK_CONCURRENCIES, BULK_ITEMS, SWEEP_RUNS } from '../config';
import { contactRows, tally } from '../contacts';
import type { BenchContext } from '../context';
import { cpuMs } from '../n8nProcess';
import { deploy, expectCount, runWorkflow, type DeployedWorkflow } from '../n8nRun';
import type { ContactRow } from '../rawTasks';
import { cpuPerRequest, medianLine, secondsOf } from '../stats';
import { sweepConcurrency } from '../sweep';
import { erpCreate, httpCreate } from '../workflows';

export interface BulkCreateResult {
	items: number;
	/** The ERP node's fastest Concurrency, also used by the raw client. */
	concurrency: number;
	/** The ERP node at its best: Map Automatically. */
	erpNode_s: number;
	/** The ERP node with the four fields mapped one expression each, at the same Concurrency. */
	erpNodeExpressions_s: number;
	httpRequestNode_s: number;
	rawClient_s: number;
	samples: Record<'erpNode' | 'erpNodeExpressions' | 'httpRequestNode' | 'rawClient', number[]>;
	/** n8n's main process: CPU milliseconds per create, the median run's CPU time over the items. */
	n8nCpuPerRequest_ms: Record<'erpNode' | 'erpNodeExpressions' | 'httpRequestNode', number>;
	/** The ERP node's (Map Automatically) median seconds at each Concurrency tried (the settings take turns), and every run. */
	concurrencySweep: Record<string, number>;
	concurrencySweepRuns: Record<string, number[]>;
}

interface Sample {
	seconds: number;
	/** CPU time n8n's main process spent on the run (n8n contenders). */
	cpu_ms?: number;
}

/** Creates one batch from an empty sandbox and checks that it holds exactly BULK_ITEMS new contacts, once each. */
async function createBatch(
	ctx: BenchContext,
	contender: string,
	create: (rows: ContactRow[]) => Promise<{ seconds: number; count?: number; answer?: unknown; cpu_ms?: number }>,
): Promise<Sample> {
	await ctx.sandbox.reset();
	const { tag, rows } = contactRows(`bulk-${contender}`, BULK_ITEMS);
	const run = await create(rows);
	expectCount(contender, run, BULK_ITEMS);
	const held = await tally(ctx.sandbox, tag, BULK_ITEMS);
	const total = (await ctx.sandbox.records('contacts')).length;
	if (held.missing || held.duplicates || total !== BULK_ITEMS) {
		throw new Error(`${contender}: the sandbox holds ${total} contacts (${held.missing} of the batch missing, ${held.duplicates} duplicated) instead of exactly ${BULK_ITEMS} new ones`);
	}
	return { seconds: run.seconds, cpu_ms: run.cpu_ms };
}

/** One batch through an n8n workflow, with the CPU time n8n's main process spent on it. */
export const createInN8n = (ctx: BenchContext, contender: string, workflow: DeployedWorkflow) =>
	createBatch(ctx, contender, async (rows) => {
		const cpuBefore = cpuMs(ctx.n8nPid);
		const run = await runWorkflow(ctx.n8n, workflow, { rows });
		return { ...run, cpu_ms: cpuMs(ctx.n8nPid) - cpuBefore };
	});

/** 2,000 input items, one contact each. */
export async function bulkCreate(ctx: BenchContext): Promise<BulkCreateResult> {
	ctx.log(`bulkCreate: ${BULK_ITEMS} contacts; the ERP node's Concurrency first`);
	const sweep = await sweepConcurrency(ctx, BULK_CONCURRENCIES, SWEEP_RUNS, async (concurrency) => {
		const workflow = await deploy(ctx.n8n, erpCreate(ctx.credential, concurrency, 'auto'));
		return () => createInN8n(ctx, 'erpNode', workflow);
	});
	const best = sweep.best;
	const erp = await deploy(ctx.n8n, erpCreate(ctx.credential, best, 'auto'));
	const erpExpressions = await deploy(ctx.n8n, erpCreate(ctx.credential, best, 'expressions'));
	const http = await deploy(ctx.n8n, httpCreate(ctx.credential, ctx.api.baseUrl));
	ctx.log(`bulkCreate: the ERP node at Concurrency ${best} (Map Automatically, then expressions), the HTTP Request node as it comes, the raw client at ${best}`);

	const samples = await alternate(
		{
			erpNode: () => createInN8n(ctx, 'erpNode', erp),
			erpNodeExpressions: () => createInN8n(ctx, 'erpNodeExpressions', erpExpressions),
			httpRequestNode: () => createInN8n(ctx, 'httpRequestNode', http),
			rawClient: () =>
				createBatch(ctx, 'rawClient', (rows) => ctx.raw.run({ kind: 'create', api: ctx.api, path: '/contacts', rows, concurrency: best })),
		},
		ctx.runs,
		ctx.log,
	);
	const { runs, medians } = secondsOf(samples);
	ctx.log(medianLine(medians));
	return {
		items: BULK_ITEMS,
		concurrency: best,
		erpNode_s: medians.erpNode,
		erpNodeExpressions_s: medians.erpNodeExpressions,
		httpRequestNode_s: medians.httpRequestNode,
		rawClient_s: medians.rawClient,
		samples: runs,
		n8nCpuPerRequest_ms: {
			erpNode: cpuPerRequest(samples.erpNode, BULK_ITEMS),
			erpNodeExpressions: cpuPerRequest(samples.erpNodeExpressions, BULK_ITEMS),
			httpRequestNode: cpuPerRequest(samples.httpRequestNode, BULK_ITEMS),
		},
		concurrencySweep: sweep.seconds,
		concurrencySweepRuns: sweep.runs,
	};
}
