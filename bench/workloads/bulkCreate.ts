import { alternate } from '../alternate';
import { BULK_CONCURRENCIES, BULK_ITEMS } from '../config';
import { contactRows, tally } from '../contacts';
import type { BenchContext } from '../context';
import { deploy, expectCount, runWorkflow, type DeployedWorkflow } from '../n8nRun';
import type { ContactRow } from '../rawTasks';
import { secondsOf } from '../stats';
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
	/** One run of the ERP node (Map Automatically) at each Concurrency tried: seconds. */
	concurrencySweep: Record<string, number>;
}

/** Creates one batch from an empty sandbox and checks that it holds exactly BULK_ITEMS new contacts, once each. */
async function createBatch(ctx: BenchContext, contender: string, create: (rows: ContactRow[]) => Promise<{ seconds: number; count?: number; answer?: unknown }>) {
	await ctx.sandbox.reset();
	const { tag, rows } = contactRows(`bulk-${contender}`, BULK_ITEMS);
	const run = await create(rows);
	expectCount(contender, run, BULK_ITEMS);
	const held = await tally(ctx.sandbox, tag, BULK_ITEMS);
	const total = (await ctx.sandbox.records('contacts')).length;
	if (held.missing || held.duplicates || total !== BULK_ITEMS) {
		throw new Error(`${contender}: the sandbox holds ${total} contacts (${held.missing} of the batch missing, ${held.duplicates} duplicated) instead of exactly ${BULK_ITEMS} new ones`);
	}
	return { seconds: run.seconds };
}

const inN8n = (ctx: BenchContext, contender: string, workflow: DeployedWorkflow) =>
	createBatch(ctx, contender, (rows) => runWorkflow(ctx.n8n, workflow, { rows }));

/** 2,000 input items, one contact each. */
export async function bulkCreate(ctx: BenchContext): Promise<BulkCreateResult> {
	ctx.log(`bulkCreate: ${BULK_ITEMS} contacts; the ERP node's Concurrency first`);
	// The ERP node (Map Automatically) once at each Concurrency after one warm-up run.
	const { best, seconds: concurrencySweep } = await sweepConcurrency(ctx, BULK_CONCURRENCIES, 1, async (concurrency) => {
		const workflow = await deploy(ctx.n8n, erpCreate(ctx.credential, concurrency, 'auto'));
		return () => inN8n(ctx, 'erpNode', workflow);
	});
	const erp = await deploy(ctx.n8n, erpCreate(ctx.credential, best, 'auto'));
	const erpExpressions = await deploy(ctx.n8n, erpCreate(ctx.credential, best, 'expressions'));
	const http = await deploy(ctx.n8n, httpCreate(ctx.credential, ctx.api.baseUrl, false));
	ctx.log(`bulkCreate: the ERP node at Concurrency ${best} (Map Automatically, then expressions), the HTTP Request node as it comes, the raw client at ${best}`);

	const samples = await alternate(
		{
			erpNode: () => inN8n(ctx, 'erpNode', erp),
			erpNodeExpressions: () => inN8n(ctx, 'erpNodeExpressions', erpExpressions),
			httpRequestNode: () => inN8n(ctx, 'httpRequestNode', http),
			rawClient: () => createBatch(ctx, 'rawClient', (rows) => ctx.raw.run({ kind: 'bulkCreate', api: ctx.api, rows, concurrency: best })),
		},
		ctx.runs,
		ctx.log,
	);
	const { runs, medians } = secondsOf(samples);
	return {
		items: BULK_ITEMS,
		concurrency: best,
		erpNode_s: medians.erpNode,
		erpNodeExpressions_s: medians.erpNodeExpressions,
		httpRequestNode_s: medians.httpRequestNode,
		rawClient_s: medians.rawClient,
		samples: runs,
		concurrencySweep,
	};
}
