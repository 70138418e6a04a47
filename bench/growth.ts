import { loadAvg1 } from './machine';
import { alive, cpuMs, peakRssMb, resetPeakRss, rssMb } from './n8nProcess';
import type { BenchContext } from './context';
import type { DeployedWorkflow, WorkflowRun } from './n8nRun';
import { timed } from './stats';

/** One run of a growth workload: n8n's main process and the sandbox around it. */
export interface GrowthRun {
	seconds: number;
	/** VmRSS of n8n's main process before the run, and its highest during it (VmHWM, reset before the run). */
	rssBefore_mb: number;
	rssPeak_mb: number;
	/** CPU time of n8n's main process over the run. */
	cpu_ms: number;
	/** API requests the sandbox answered during the run (its request log's sequence numbers). */
	requests: number;
	/** The 1-minute load average when the run ended: the machine's two cores are shared. */
	loadAvg1: number;
}

/** What a run that did not end as asked met: n8n's answer, a time limit, or n8n gone. */
export class RunFailed extends Error {
	constructor(
		message: string,
		readonly kind: 'failed' | 'timedOut' | 'n8nExited',
		readonly partial: Pick<GrowthRun, 'seconds' | 'rssBefore_mb' | 'rssPeak_mb'> & { rssLast_mb: number },
	) {
		super(message);
	}
}


/** The webhook called with a time limit: n8n's answer, or undefined when the limit came first. */
async function callWithin(ctx: BenchContext, workflow: DeployedWorkflow, body: object, limitS: number): Promise<WorkflowRun | undefined> {
	try {
		const { result, seconds } = await timed(async () => {
			const response = await fetch(`${ctx.n8n.baseUrl}/webhook/${workflow.path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(limitS * 1000),
			});
			const text = await response.text();
			let answer: unknown = text;
			try {
				answer = JSON.parse(text);
			} catch {
				// not JSON: keep the text
			}
			return { status: response.status, answer };
		});
		const counted = (result.answer as Record<string, unknown> | null)?.[`count_${workflow.countField}`];
		return { seconds, status: result.status, count: result.status === 200 && typeof counted === 'number' ? counted : undefined, answer: result.answer };
	} catch (error) {
		if ((error as Error).name === 'TimeoutError') return undefined;
		throw error;
	}
}

/**
 * Runs `workflow` once with `body`, measuring n8n's memory and CPU and the sandbox's requests, and checks that it
 * counted `expected` records. Throws RunFailed when n8n answered otherwise, took longer than `limitS`, or exited.
 */
export async function growthRun(ctx: BenchContext, workflow: DeployedWorkflow, expected: number, limitS: number, body: object = {}): Promise<GrowthRun> {
	const pid = ctx.n8nPid;
	await ctx.sandbox.clearRequests();
	const rssBefore_mb = rssMb(pid);
	const cpuBefore = cpuMs(pid);
	resetPeakRss(pid);
	// VmHWM goes with the process: the last sample is what is known of a process that died.
	let rssLast_mb = rssBefore_mb;
	let rssPeak_mb = rssBefore_mb;
	const sampler = setInterval(() => {
		if (!alive(pid)) return;
		rssLast_mb = rssMb(pid);
		rssPeak_mb = Math.max(rssPeak_mb, peakRssMb(pid));
	}, 250);
	const started = performance.now();
	let run: WorkflowRun | undefined;
	let thrown: unknown;
	try {
		run = await callWithin(ctx, workflow, body, limitS);
	} catch (error) {
		thrown = error;
	} finally {
		clearInterval(sampler);
	}
	const seconds = Math.round(performance.now() - started) / 1000;
	if (!alive(pid)) {
		throw new RunFailed(`n8n's main process exited (${(thrown as Error | undefined)?.message ?? 'it answered first'})`, 'n8nExited', { seconds, rssBefore_mb, rssPeak_mb, rssLast_mb });
	}
	rssPeak_mb = Math.max(rssPeak_mb, peakRssMb(pid));
	const partial = { seconds, rssBefore_mb, rssPeak_mb, rssLast_mb: rssMb(pid) };
	if (thrown) throw new RunFailed(`the webhook call failed: ${(thrown as Error).message}`, 'failed', partial);
	if (!run) throw new RunFailed(`no answer within ${limitS} s`, 'timedOut', partial);
	if (run.count !== expected) {
		throw new RunFailed(`n8n answered ${run.status}, ${run.count ?? 'no'} records instead of ${expected}: ${JSON.stringify(run.answer).slice(0, 500)}`, 'failed', partial);
	}
	return {
		seconds: run.seconds,
		rssBefore_mb,
		rssPeak_mb,
		cpu_ms: Math.round(cpuMs(pid) - cpuBefore),
		requests: await ctx.sandbox.lastRequestSeq(),
		loadAvg1: loadAvg1(),
	};
}

