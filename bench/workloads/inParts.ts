import { readExamples, useCredential } from '../../tooling/host/examples';
import { finishedExecution, nodeOutput } from '../../tooling/host/executions';
import { LIMIT, SCALING } from '../config';
import { seedContactsUpTo } from '../contacts';
import type { BenchContext } from '../context';
import { growthRun } from '../growth';
import { untilIdle } from '../n8nProcess';
import { loadAvg1 } from '../machine';
import { peakRssMb, resetPeakRss, rssMb } from '../n8nProcess';
import { deploy } from '../n8nRun';
import { timed } from '../stats';
import { erpListAll, savingExecutions } from '../workflows';

export const IN_PARTS_EXAMPLE = 'contacts-by-month.json';

export interface PartsRun {
	/** Until the execution was saved as finished (a manual run answers at once with its id). */
	seconds: number;
	status: string;
	rssBefore_mb: number;
	rssPeak_mb: number;
	loadAvg1: number;
}

export interface InPartsResult {
	records: number;
	example: string;
	/** The example, run as the editor's "Execute workflow" does: every contact, one month a sub-workflow. */
	byMonth: PartsRun & { months: number; counted?: number };
	/** The same contacts in one Return All with the execution saved (n8n's default), for comparison. */
	returnAll: PartsRun;
}

/** Runs `work` with n8n's peak RSS set back before it; answers its result with the memory around it. */
async function measured<T>(ctx: BenchContext, work: () => Promise<T>) {
	const rssBefore_mb = rssMb(ctx.n8nPid);
	resetPeakRss(ctx.n8nPid);
	const { result, seconds } = await timed(work);
	return { result, seconds, rssBefore_mb, rssPeak_mb: peakRssMb(ctx.n8nPid), loadAvg1: loadAvg1() };
}

/**
 * The way beyond Return All's limit, measured: examples/contacts-by-month.json reading LIMIT.inPartsRecords contacts
 * one month at a time in a sub-workflow, then the same contacts in one saved Return All (in this order: V8 keeps
 * the heap the larger one grows to, which would count against the example).
 */
export async function inParts(ctx: BenchContext): Promise<InPartsResult> {
	const records = LIMIT.inPartsRecords;
	ctx.log(`inParts: ${records} contacts by month (${IN_PARTS_EXAMPLE}), then in one saved Return All`);
	await ctx.sandbox.reset();
	await seedContactsUpTo(ctx.sandbox, 0, records);
	await ctx.n8n.createApiKey(`bench ${Date.now()}`);
	const example = readExamples().find((one) => one.file === IN_PARTS_EXAMPLE);
	if (!example) throw new Error(`examples/${IN_PARTS_EXAMPLE} is missing`);
	const saved = await ctx.n8n.createWorkflow(useCredential(example.workflow, ctx.credential));

	const byMonth = await measured(ctx, async () => finishedExecution(ctx.n8n, await ctx.n8n.runManually(saved.id, 'Start'), LIMIT.inPartsLimitS * 1000));
	const months = byMonth.result.data?.resultData.runData['Read and Process the Part']?.length ?? 0;
	const counted = nodeOutput(byMonth.result, 'Contacts Read')[0]?.sum_contacts as number | undefined;
	ctx.log(`  by month: ${byMonth.result.status} in ${byMonth.seconds} s, ${months} months, ${counted} contacts, peak RSS ${byMonth.rssPeak_mb} MB`);
	await untilIdle(ctx.n8nPid);

	const workflow = await deploy(ctx.n8n, savingExecutions(erpListAll(ctx.credential, SCALING.listConcurrency)));
	const run = await growthRun(ctx, workflow, records, LIMIT.tryLimitS);
	ctx.log(`  one Return All, saved: ${run.seconds} s, peak RSS ${run.rssPeak_mb} MB`);
	await untilIdle(ctx.n8nPid);
	await ctx.sandbox.reset();
	const { result, ...memory } = byMonth;
	return {
		records,
		example: IN_PARTS_EXAMPLE,
		byMonth: { ...memory, status: result.status, months, ...(counted !== undefined && { counted }) },
		returnAll: { seconds: run.seconds, status: 'success', rssBefore_mb: run.rssBefore_mb, rssPeak_mb: run.rssPeak_mb, loadAvg1: run.loadAvg1 },
	};
}
