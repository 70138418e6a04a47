import { PAGE_SIZE, SCALING } from '../config';
import { contactRows, tally } from '../contacts';
import type { BenchContext } from '../context';
import { growthRun, RunFailed, type GrowthRun } from '../growth';
import { untilIdle } from '../n8nProcess';
import { loadAvg1 } from '../machine';
import { deploy, type DeployedWorkflow } from '../n8nRun';
import { median, timed } from '../stats';
import { erpCreate, erpListAll, httpListAll } from '../workflows';

export type GrowthContender = 'erpNode' | 'httpRequestNode';

/** One size of a series: every run, and the medians. */
export interface GrowthPoint {
	/** Records read, or items created. */
	size: number;
	runs: GrowthRun[];
	seconds: number;
	perRecord_ms: number;
	rssPeak_mb: number;
	/** n8n's CPU per record, the median run's. */
	cpuPerRecord_ms: number;
	requests: number;
	loadAvg1: number;
}

/** A size that was not measured, and why. */
export interface GrowthGap {
	size: number;
	notMeasured: string;
}

export interface GrowthSeries {
	operation: 'returnAll' | 'create';
	contender: GrowthContender;
	latency_ms: number;
	points: Array<GrowthPoint | GrowthGap>;
	/** The time per record at the largest size measured ÷ the one at the smallest measured above 1,000. */
	bend?: number;
	/** The same for n8n's CPU time per record: less swayed by the other work on the machine than the wall time. */
	cpuBend?: number;
	/** RSS the peak gained per record from the smallest to the largest size measured, in KB. */
	rssPerRecord_kb?: number;
}

export interface ScalingResult {
	runs: number;
	/** The ERP node's Concurrency for Get Many (Return All) and for Create. */
	concurrency: { returnAll: number; create: number };
	tolerance: number;
	runLimit_s: number;
	sizeBudget_s: number;
	/** The sandbox seeding each size (reset, then seed), in seconds. */
	seeding: Array<{ records: number; seconds: number }>;
	loadAvg: { start: number; end: number };
	series: GrowthSeries[];
}

/** Whether a size was measured: a point of a run, or of the summary (which keeps no runs). */
export const measured = <P extends { size: number }>(point: P | GrowthGap): point is P => !('notMeasured' in point);

function pointOf(size: number, runs: GrowthRun[]): GrowthPoint {
	const seconds = median(runs.map((run) => run.seconds));
	const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
	return {
		size,
		runs,
		seconds,
		perRecord_ms: round((seconds * 1000) / size, 4),
		rssPeak_mb: median(runs.map((run) => run.rssPeak_mb)),
		cpuPerRecord_ms: round(median(runs.map((run) => run.cpu_ms)) / size, 4),
		requests: median(runs.map((run) => run.requests)),
		loadAvg1: median(runs.map((run) => run.loadAvg1)),
	};
}

/** The bend and the memory per record, from the sizes measured. */
function summarise(series: GrowthSeries): GrowthSeries {
	const points = series.points.filter(measured);
	const largest = points.at(-1);
	const base = points.find((point) => point.size > 1_000);
	const smallest = points[0];
	return {
		...series,
		...(largest &&
			base &&
			largest !== base && {
				bend: Math.round((largest.perRecord_ms / base.perRecord_ms) * 100) / 100,
				cpuBend: Math.round((largest.cpuPerRecord_ms / base.cpuPerRecord_ms) * 100) / 100,
			}),
		...(largest &&
			largest !== smallest && {
				rssPerRecord_kb: Math.round(((largest.rssPeak_mb - smallest.rssPeak_mb) * 1024 * 100) / (largest.size - smallest.size)) / 100,
			}),
	};
}

/**
 * Runs one size `runs` times, unless the size before it says that would take too long; a run that fails or
 * outlasts the limit ends the series (answered as a gap, with what happened).
 */
async function measure(ctx: BenchContext, label: string, size: number, previous: GrowthPoint | GrowthGap | undefined, once: () => Promise<GrowthRun>): Promise<GrowthPoint | GrowthGap> {
	if (previous && !measured(previous)) return { size, notMeasured: `not tried: ${previous.size.toLocaleString('en')} did not complete` };
	const estimate_s = previous ? (previous.perRecord_ms * size) / 1000 : 0;
	if (estimate_s > SCALING.runLimitS) return { size, notMeasured: `not tried: ${Math.round(estimate_s)} s estimated from ${previous?.size.toLocaleString('en')}, above the ${SCALING.runLimitS} s limit` };
	const runs = Math.max(1, Math.min(SCALING.runs, Math.floor(SCALING.sizeBudgetS / Math.max(estimate_s, 1))));
	const samples: GrowthRun[] = [];
	try {
		for (let run = 0; run < runs; run++) {
			samples.push(await once());
			ctx.log(`  ${label} ${size}: ${samples.at(-1)?.seconds.toFixed(3)} s, peak RSS ${samples.at(-1)?.rssPeak_mb} MB, load ${samples.at(-1)?.loadAvg1}`);
		}
	} catch (error) {
		if (!(error instanceof RunFailed) || error.kind === 'n8nExited') throw error;
		ctx.log(`  ${label} ${size}: ${error.message}`);
		await untilIdle(ctx.n8nPid);
		return { size, notMeasured: `${error.kind === 'timedOut' ? 'stopped' : 'failed'} after ${error.partial.seconds} s: ${error.message}` };
	}
	return pointOf(size, samples);
}

async function returnAllSeries(ctx: BenchContext, seeding: ScalingResult['seeding']): Promise<GrowthSeries[]> {
	const workflows: Record<GrowthContender, DeployedWorkflow> = {
		erpNode: await deploy(ctx.n8n, erpListAll(ctx.credential, SCALING.listConcurrency)),
		httpRequestNode: await deploy(ctx.n8n, httpListAll(ctx.credential, ctx.api.baseUrl, PAGE_SIZE)),
	};
	const series = SCALING.latenciesMs.flatMap((latency_ms) =>
		(['erpNode', 'httpRequestNode'] as const).map((contender): GrowthSeries => ({ operation: 'returnAll', contender, latency_ms, points: [] })),
	);
	for (const [index, records] of SCALING.listRecords.entries()) {
		await ctx.sandbox.reset();
		const { seconds } = await timed(() => ctx.sandbox.seed({ contacts: records }));
		seeding.push({ records, seconds });
		ctx.log(`scaling: ${records} contacts seeded in ${seconds} s`);
		for (const one of series) {
			await ctx.sandbox.setFaults({ latencyMs: one.latency_ms });
			const run = () => growthRun(ctx, workflows[one.contender], records, SCALING.runLimitS);
			if (index === 0) await run(); // warm-up
			one.points.push(await measure(ctx, `Return All, ${one.contender}, ${one.latency_ms} ms,`, records, one.points.at(-1), run));
		}
	}
	return series.map(summarise);
}

/** Creates `items` contacts from an empty sandbox and checks that it then holds exactly those, once each. */
async function createRun(ctx: BenchContext, workflow: DeployedWorkflow, items: number, latencyMs: number): Promise<GrowthRun> {
	await ctx.sandbox.reset();
	await ctx.sandbox.setFaults({ latencyMs });
	const { tag, rows } = contactRows('scaling', items);
	const run = await growthRun(ctx, workflow, items, SCALING.runLimitS, { rows });
	const held = await tally(ctx.sandbox, tag, items);
	if (held.missing || held.duplicates || held.records !== items) {
		throw new Error(`create ${items}: the sandbox holds ${held.records} of the batch (${held.missing} missing, ${held.duplicates} duplicated)`);
	}
	return run;
}

async function createSeries(ctx: BenchContext): Promise<GrowthSeries[]> {
	const workflow = await deploy(ctx.n8n, erpCreate(ctx.credential, SCALING.createConcurrency, 'auto'));
	const all: GrowthSeries[] = [];
	for (const latency_ms of SCALING.latenciesMs) {
		const series: GrowthSeries = { operation: 'create', contender: 'erpNode', latency_ms, points: [] };
		for (const [index, items] of SCALING.createItems.entries()) {
			const run = () => createRun(ctx, workflow, items, latency_ms);
			if (index === 0) await run(); // warm-up
			series.points.push(await measure(ctx, `Create, ${latency_ms} ms,`, items, series.points.at(-1), run));
		}
		all.push(summarise(series));
	}
	await ctx.sandbox.reset();
	return all;
}

/**
 * How cost grows: Return All of 1,000 to 100,000 contacts (the ERP node and the HTTP Request node with pagination) and
 * Create of 1,000 to 50,000 items, on loopback and 30 ms away: time, memory and requests per record.
 */
export async function scaling(ctx: BenchContext): Promise<ScalingResult> {
	const start = loadAvg1();
	const seeding: ScalingResult['seeding'] = [];
	ctx.log(`scaling: Return All of ${SCALING.listRecords.join(', ')} contacts, Create of ${SCALING.createItems.join(', ')}`);
	const series = [...(await returnAllSeries(ctx, seeding)), ...(await createSeries(ctx))];
	return {
		runs: SCALING.runs,
		concurrency: { returnAll: SCALING.listConcurrency, create: SCALING.createConcurrency },
		tolerance: SCALING.flatTolerance,
		runLimit_s: SCALING.runLimitS,
		sizeBudget_s: SCALING.sizeBudgetS,
		seeding,
		loadAvg: { start, end: loadAvg1() },
		series,
	};
}
