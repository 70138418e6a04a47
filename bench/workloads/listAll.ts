import { alternate } from '../alternate';
import { LIST_CONCURRENCIES, LIST_RECORDS, PAGE_SIZE, SWEEP_RUNS } from '../config';
import type { BenchContext } from '../context';
import { deploy, expectCount, runWorkflow, type DeployedWorkflow } from '../n8nRun';
import { cpuMs, peakRssDuring, rssMb } from '../n8nProcess';
import { cpuPerRequest, medianLine, median, secondsOf } from '../stats';
import { sweepConcurrency } from '../sweep';
import { erpListAll, httpListAll } from '../workflows';

export interface Rss {
	before_mb: number;
	peak_mb: number;
	after_mb: number;
}

const PAGES = Math.ceil(LIST_RECORDS / PAGE_SIZE);

interface Sample {
	seconds: number;
	rss?: Rss;
	/** CPU time n8n's main process spent on the run. */
	cpu_ms?: number;
}

type Contender = 'erpNode' | 'erpNodeSequential' | 'httpRequestNode' | 'rawClient' | 'rawClientConcurrent';

export interface ListAllResult {
	records: number;
	/** The ERP node at its fastest Concurrency (pages read at once). */
	erpNode_s: number;
	concurrency: number;
	/** The ERP node at Concurrency 1: one page after the other, like the raw client's loop. */
	erpNodeSequential_s: number;
	httpRequestNode_s: number;
	/** The raw client's loop: one page after the other. */
	rawClient_s: number;
	/** The raw client reading as many pages at once as the ERP node. */
	rawClientConcurrent_s: number;
	samples: Record<Contender, number[]>;
	/** n8n's main process: CPU milliseconds per page request, the median run's CPU time over the pages it read. */
	n8nCpuPerRequest_ms: Record<'erpNode' | 'httpRequestNode', number>;
	/** The sandbox's own time for one page of 100 of the 20,000 contacts (its Server-Timing header), median of 50. */
	sandboxPage_ms: number;
	/** The ERP node's median seconds at each Concurrency tried (the settings take turns), and every run of it. */
	concurrencySweep: Record<string, number>;
	concurrencySweepRuns: Record<string, number[]>;
	/** n8n's main process around each run, medians. */
	rss: Record<'erpNode' | 'httpRequestNode', Rss>;
}

/** One run of a workflow that reads every contact, with n8n's memory and CPU time around it. */
export async function listInN8n(ctx: BenchContext, contender: string, workflow: DeployedWorkflow): Promise<Sample> {
	const before_mb = rssMb(ctx.n8nPid);
	const cpuBefore = cpuMs(ctx.n8nPid);
	const { result: run, peak_mb } = await peakRssDuring(ctx.n8nPid, () => runWorkflow(ctx.n8n, workflow));
	const cpu_ms = cpuMs(ctx.n8nPid) - cpuBefore;
	expectCount(contender, run, LIST_RECORDS);
	return { seconds: run.seconds, rss: { before_mb, peak_mb, after_mb: rssMb(ctx.n8nPid) }, cpu_ms };
}

const medianRss = (samples: Sample[]): Rss => {
	const of = (field: keyof Rss) => median(samples.flatMap((sample) => (sample.rss ? [sample.rss[field]] : [])));
	return { before_mb: of('before_mb'), peak_mb: of('peak_mb'), after_mb: of('after_mb') };
};

const raw = async (ctx: BenchContext, concurrency: number): Promise<Sample> => {
	const run = await ctx.raw.run({ kind: 'listAll', api: ctx.api, perPage: PAGE_SIZE, concurrency });
	expectCount('rawClient', run, LIST_RECORDS);
	return { seconds: run.seconds };
};

/** What the sandbox itself spends on a page, so that the figures above are known to measure the clients. */
async function sandboxPageMs(ctx: BenchContext): Promise<number> {
	const times: number[] = [];
	for (let page = 1; page <= 50; page++) {
		const response = await fetch(`${ctx.api.baseUrl}/contacts?page=${page * 4}&per_page=${PAGE_SIZE}`, {
			headers: { Authorization: `Bearer ${ctx.api.token}` },
		});
		await response.arrayBuffer();
		const timing = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
		if (!response.ok || !timing) throw new Error(`the sandbox answered page ${page * 4} with ${response.status} and no Server-Timing`);
		times.push(Number(timing[1]));
	}
	return Math.round(median(times) * 1000) / 1000;
}

/** Every contact of a 20,000-contact ERP, 100 per page. */
export async function listAll(ctx: BenchContext): Promise<ListAllResult> {
	ctx.log(`listAll: seeding ${LIST_RECORDS} contacts; the ERP node's Concurrency first`);
	await ctx.sandbox.reset();
	await ctx.sandbox.seed({ contacts: LIST_RECORDS });
	const sandboxPage_ms = await sandboxPageMs(ctx);
	ctx.log(`listAll: the sandbox spends ${sandboxPage_ms} ms on a page of ${PAGE_SIZE}`);
	const sweep = await sweepConcurrency(ctx, LIST_CONCURRENCIES, SWEEP_RUNS, async (concurrency) => {
		const workflow = await deploy(ctx.n8n, erpListAll(ctx.credential, concurrency));
		return () => listInN8n(ctx, 'erpNode', workflow);
	});
	const best = sweep.best;
	const erp = await deploy(ctx.n8n, erpListAll(ctx.credential, best));
	const erpSequential = await deploy(ctx.n8n, erpListAll(ctx.credential, 1));
	const http = await deploy(ctx.n8n, httpListAll(ctx.credential, ctx.api.baseUrl, PAGE_SIZE));
	ctx.log(`listAll: the ERP node at Concurrency ${best} and 1, the HTTP Request node, the raw client at 1 and ${best}`);

	const samples = await alternate<Contender, Sample>(
		{
			erpNode: () => listInN8n(ctx, 'erpNode', erp),
			erpNodeSequential: () => listInN8n(ctx, 'erpNodeSequential', erpSequential),
			httpRequestNode: () => listInN8n(ctx, 'httpRequestNode', http),
			rawClient: () => raw(ctx, 1),
			rawClientConcurrent: () => raw(ctx, best),
		},
		ctx.runs,
		ctx.log,
	);
	const { runs, medians } = secondsOf(samples);
	ctx.log(medianLine(medians));
	return {
		records: LIST_RECORDS,
		erpNode_s: medians.erpNode,
		concurrency: best,
		erpNodeSequential_s: medians.erpNodeSequential,
		httpRequestNode_s: medians.httpRequestNode,
		rawClient_s: medians.rawClient,
		rawClientConcurrent_s: medians.rawClientConcurrent,
		samples: runs,
		n8nCpuPerRequest_ms: { erpNode: cpuPerRequest(samples.erpNode, PAGES), httpRequestNode: cpuPerRequest(samples.httpRequestNode, PAGES) },
		sandboxPage_ms,
		concurrencySweep: sweep.seconds,
		concurrencySweepRuns: sweep.runs,
		rss: { erpNode: medianRss(samples.erpNode), httpRequestNode: medianRss(samples.httpRequestNode) },
	};
}
