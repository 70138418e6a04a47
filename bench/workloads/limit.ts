import { readFileSync, statSync } from 'node:fs';

import { LIMIT, SCALING } from '../config';
import { seedContactsUpTo } from '../contacts';
import type { BenchContext } from '../context';
import { growthRun, RunFailed } from '../growth';
import { untilIdle } from '../n8nProcess';
import { loadAvg1 } from '../machine';
import { deploy } from '../n8nRun';
import { timed } from '../stats';
import { erpListAll, savingExecutions } from '../workflows';

/** The execution as the editor opens it (`GET /rest/executions/:id`), or what went wrong. */
export interface OpenedExecution {
	status?: string;
	/** The size of n8n's answer, which the editor downloads and parses. */
	mb?: number;
	seconds?: number;
	/** n8n sent the execution without its run data: above EXECUTIONS_DATA_MAX_DISPLAY_SIZE (100 MB in 2.41). */
	tooLargeToDisplay?: boolean;
	error?: string;
}

export interface LimitTry {
	records: number;
	/** n8n's default (the execution saved with its data), or not saved as in every other bench workflow. */
	saved: boolean;
	outcome: 'completed' | 'failed' | 'timedOut' | 'n8nExited';
	seconds: number;
	/** From n8n's answer until its main process was quiet (saving the execution, collecting garbage). */
	settled_s?: number;
	rssBefore_mb: number;
	rssPeak_mb: number;
	/** The last RSS sampled (every 250 ms): for a process that died, the RSS known closest to its end. */
	rssLast_mb?: number;
	loadAvg1: number;
	/** n8n's answer, or the error lines n8n logged during the try. */
	error?: string;
	opened?: OpenedExecution;
}

export interface LimitResult {
	tryLimit_s: number;
	/** Return All at Concurrency … on loopback. */
	concurrency: number;
	/** Contacts added before each size (to the ones of the size before), in seconds. */
	seeding: Array<{ records: number; seconds: number }>;
	tries: LimitTry[];
	loadAvg: { start: number; end: number };
}

/** n8n itself: its log, and a fresh start after it died (on the same port, so the REST client and webhooks stay). */
export interface N8nControl {
	logFile: string;
	/** Starts n8n again and answers its new main process's pid. */
	restart(): Promise<number>;
}

const logSize = (file: string) => statSync(file).size;

/** The error lines n8n logged after `offset` (a heap limit, a failed save), last few. */
function loggedErrors(file: string, offset: number): string | undefined {
	const lines = readFileSync(file, 'utf8').slice(offset).split('\n');
	const errors = lines.filter((line) => /error|heap|fatal|invalid string length|too big|out of memory/i.test(line) && !/ENOTFOUND|system task|venv|python/i.test(line));
	return errors.length ? errors.slice(-6).join('\n').slice(0, 1500) : undefined;
}

/** The newest execution of `workflowId`, opened as the editor does. */
async function openLatestExecution(ctx: BenchContext, workflowId: string): Promise<OpenedExecution> {
	try {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const list = await ctx.n8n.rest<{ results: Array<{ id: string; status: string }> }>('GET', `/rest/executions?filter=${filter}&limit=1`);
		const newest = list.results[0];
		if (!newest) return { error: 'no execution saved' };
		const { result, seconds } = await timed(async () => {
			const response = await fetch(`${ctx.n8n.baseUrl}/rest/executions/${newest.id}`, { headers: { cookie: `n8n-auth=${ctx.n8n.authCookie}` } });
			return { status: response.status, text: await response.text() };
		});
		const mb = Math.round(result.text.length / 2 ** 20);
		if (result.status !== 200) return { status: newest.status, mb, seconds, error: `n8n answered ${result.status}: ${result.text.slice(0, 300)}` };
		const answer = (JSON.parse(result.text) as { data?: { dataTooLargeToDisplay?: boolean } }).data;
		return { status: newest.status, mb, seconds, ...(answer?.dataTooLargeToDisplay && { tooLargeToDisplay: true }) };
	} catch (error) {
		return { error: (error as Error).message.slice(0, 500) };
	}
}

/**
 * Return All above the curve, on loopback, each size once not saved and once saved (n8n's default),
 * until n8n fails. A size whose unsaved try fails ends the probe; a saved try that fails is not repeated at the
 * larger sizes. When n8n dies it is started again for what is left.
 */
export async function limit(ctx: BenchContext, n8n: N8nControl): Promise<LimitResult> {
	const start = loadAvg1();
	ctx.log(`limit: Return All of ${LIMIT.records.join(', ')} contacts until n8n fails (${LIMIT.tryLimitS} s a try)`);
	const workflows = {
		notSaved: await deploy(ctx.n8n, erpListAll(ctx.credential, SCALING.listConcurrency)),
		saved: await deploy(ctx.n8n, savingExecutions(erpListAll(ctx.credential, SCALING.listConcurrency))),
	};
	const tries: LimitTry[] = [];
	const seeding: LimitResult['seeding'] = [];
	let savedFailed = false;
	await ctx.sandbox.setFaults({ latencyMs: 0 });
	await ctx.sandbox.reset();
	let held = 0;
	probe: for (const records of LIMIT.records) {
		const seeded = await timed(() => seedContactsUpTo(ctx.sandbox, held, records));
		seeding.push({ records: records - held, seconds: seeded.seconds });
		ctx.log(`limit: ${records - held} contacts added in ${seeded.seconds} s`);
		held = records;
		for (const saved of savedFailed ? [false] : [false, true]) {
			const offset = logSize(n8n.logFile);
			const workflow = saved ? workflows.saved : workflows.notSaved;
			let attempt: LimitTry;
			try {
				const run = await growthRun(ctx, workflow, records, LIMIT.tryLimitS);
				attempt = { records, saved, outcome: 'completed', seconds: run.seconds, rssBefore_mb: run.rssBefore_mb, rssPeak_mb: run.rssPeak_mb, loadAvg1: run.loadAvg1 };
			} catch (error) {
				if (!(error instanceof RunFailed)) throw error;
				attempt = { records, saved, outcome: error.kind, ...error.partial, loadAvg1: loadAvg1(), error: error.message };
			}
			if (attempt.outcome !== 'n8nExited') attempt.settled_s = (await timed(() => untilIdle(ctx.n8nPid))).seconds;
			const logged = loggedErrors(n8n.logFile, offset);
			if (logged) attempt.error = attempt.error ? `${attempt.error}\n${logged}` : logged;
			if (saved && attempt.outcome !== 'n8nExited') attempt.opened = await openLatestExecution(ctx, workflow.id);
			tries.push(attempt);
			ctx.log(`  ${records} ${saved ? 'saved' : 'not saved'}: ${attempt.outcome} in ${attempt.seconds} s, peak RSS ${attempt.rssPeak_mb} MB${attempt.error ? `: ${attempt.error}` : ''}`);
			if (attempt.outcome === 'n8nExited') {
				ctx.log('limit: starting n8n again');
				ctx.n8nPid = await n8n.restart();
			}
			// An execution too large for the editor was still saved: the larger sizes show where saving itself fails.
			if (attempt.outcome !== 'completed' || (attempt.opened && (attempt.opened.error !== undefined || attempt.opened.status !== 'success'))) {
				if (!saved) break probe;
				savedFailed = true;
			}
		}
	}
	await ctx.sandbox.reset();
	return { tryLimit_s: LIMIT.tryLimitS, concurrency: SCALING.listConcurrency, seeding, tries, loadAvg: { start, end: loadAvg1() } };
}
