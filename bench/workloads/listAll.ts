import { alternate } from '../alternate';
import { LIST_RECORDS, PAGE_SIZE } from '../config';
import type { BenchContext } from '../context';
import { deploy, expectCount, runWorkflow, type DeployedWorkflow } from '../n8nRun';
import { peakRssDuring, rssMb } from '../n8nProcess';
import { median } from '../stats';
import { erpListAll, httpListAll } from '../workflows';

export interface Rss {
	before_mb: number;
	peak_mb: number;
	after_mb: number;
}

interface Sample {
	seconds: number;
	rss?: Rss;
}

export interface ListAllResult {
	records: number;
	erpNode_s: number;
	httpRequestNode_s: number;
	rawClient_s: number;
	samples: Record<'erpNode' | 'httpRequestNode' | 'rawClient', number[]>;
	/** n8n's main process around each run, medians. */
	rss: Record<'erpNode' | 'httpRequestNode', Rss>;
}

async function inN8n(ctx: BenchContext, contender: string, workflow: DeployedWorkflow): Promise<Sample> {
	const before_mb = rssMb(ctx.n8nPid);
	const { result: run, peak_mb } = await peakRssDuring(ctx.n8nPid, () => runWorkflow(ctx.n8n, workflow));
	expectCount(contender, run, LIST_RECORDS);
	return { seconds: run.seconds, rss: { before_mb, peak_mb, after_mb: rssMb(ctx.n8nPid) } };
}

const medianRss = (samples: Sample[]): Rss => {
	const of = (field: keyof Rss) => median(samples.flatMap((sample) => (sample.rss ? [sample.rss[field]] : [])));
	return { before_mb: of('before_mb'), peak_mb: of('peak_mb'), after_mb: of('after_mb') };
};

/** Every contact of a 20,000-contact ERP, 100 per page. */
export async function listAll(ctx: BenchContext): Promise<ListAllResult> {
	ctx.log(`listAll: seeding ${LIST_RECORDS} contacts`);
	await ctx.sandbox.reset();
	await ctx.sandbox.seed({ contacts: LIST_RECORDS });
	const erp = await deploy(ctx.n8n, erpListAll(ctx.credential));
	const http = await deploy(ctx.n8n, httpListAll(ctx.credential, ctx.api.baseUrl, PAGE_SIZE));

	const samples = await alternate<'erpNode' | 'httpRequestNode' | 'rawClient', Sample>(
		{
			erpNode: () => inN8n(ctx, 'erpNode', erp),
			httpRequestNode: () => inN8n(ctx, 'httpRequestNode', http),
			rawClient: async () => {
				const run = await ctx.raw.run({ kind: 'listAll', api: ctx.api, perPage: PAGE_SIZE });
				expectCount('rawClient', run, LIST_RECORDS);
				return { seconds: run.seconds };
			},
		},
		ctx.runs,
		ctx.log,
	);
	const seconds = (name: keyof typeof samples) => samples[name].map((sample) => sample.seconds);
	return {
		records: LIST_RECORDS,
		erpNode_s: median(seconds('erpNode')),
		httpRequestNode_s: median(seconds('httpRequestNode')),
		rawClient_s: median(seconds('rawClient')),
		samples: { erpNode: seconds('erpNode'), httpRequestNode: seconds('httpRequestNode'), rawClient: seconds('rawClient') },
		rss: { erpNode: medianRss(samples.erpNode), httpRequestNode: medianRss(samples.httpRequestNode) },
	};
}
