import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { sleep } from '../../tooling/host/processes';
import { BULK_ITEMS, LIST_RECORDS, PAGE_SIZE } from '../config';
import type { BenchContext } from '../context';
import { deploy } from '../n8nRun';
import { erpCreate, erpListAll } from '../workflows';
import { createInN8n } from '../workloads/bulkCreate';
import { listInN8n } from '../workloads/listAll';
import { categorise, CATEGORIES, type Category, type CpuProfile } from './categories';

/** Runs profiled per workload, after one run unprofiled. */
const PROFILED_RUNS = 3;
const PROFILE_WRITE_TIMEOUT_MS = 60_000;

export interface ProfiledWorkload {
	/** The ERP node's Concurrency during the profiled runs. */
	concurrency: number;
	runs: number;
	requestsPerRun: number;
	/** CPU milliseconds of n8n's main process per request, by where they went, and in all. */
	perRequest_ms: Record<Category, number> & { total: number };
}

export interface ProfileResult {
	listAll: ProfiledWorkload;
	bulkCreate: ProfiledWorkload;
}

let profiles = 0;

/** Starts the profiler in n8n (bench/profile/hook.ts), runs `work`, stops it and answers the profile. */
export async function profiled(ctx: BenchContext, dir: string, work: () => Promise<void>): Promise<CpuProfile> {
	const file = path.join(dir, `${++profiles}.cpuprofile`);
	process.kill(ctx.n8nPid, 'SIGUSR2');
	await sleep(500);
	await work();
	process.kill(ctx.n8nPid, 'SIGUSR2');
	for (const deadline = Date.now() + PROFILE_WRITE_TIMEOUT_MS; !existsSync(file); await sleep(200)) {
		if (Date.now() > deadline) throw new Error(`n8n wrote no profile to ${file}: was it started with bench/profile/hook.js?`);
	}
	await sleep(500); // written in one call, but let it finish
	const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile | { error: string };
	if ('error' in profile) throw new Error(`n8n's profiler failed: ${profile.error}`);
	return profile;
}

async function profileWorkload(
	ctx: BenchContext,
	dir: string,
	concurrency: number,
	requestsPerRun: number,
	runOnce: () => Promise<unknown>,
): Promise<ProfiledWorkload> {
	await runOnce();
	const totals = categorise(
		await profiled(ctx, dir, async () => {
			for (let run = 0; run < PROFILED_RUNS; run++) await runOnce();
		}),
	);
	const per = (ms: number) => Math.round((ms / (PROFILED_RUNS * requestsPerRun)) * 1000) / 1000;
	const perRequest_ms = Object.fromEntries(CATEGORIES.map(({ name }) => [name, per(totals[name])])) as ProfiledWorkload['perRequest_ms'];
	perRequest_ms.total = per(Object.values(totals).reduce((sum, ms) => sum + ms, 0));
	ctx.log(`  profile: ${Object.entries(perRequest_ms).map(([name, ms]) => `${name} ${ms} ms`).join(', ')} per request`);
	return { concurrency, runs: PROFILED_RUNS, requestsPerRun, perRequest_ms };
}

/**
 * Where n8n's main process spends its CPU per request while the ERP node reads every contact (per page) and
 * creates contacts with Map Automatically (per create): a V8 CPU profile of PROFILED_RUNS runs of each.
 */
export async function profile(ctx: BenchContext, dir: string, concurrency: { listAll: number; bulkCreate: number }): Promise<ProfileResult> {
	ctx.log(`profile: the ERP node in n8n's main process, ${PROFILED_RUNS} runs of listAll and of bulkCreate`);
	await ctx.sandbox.reset();
	await ctx.sandbox.seed({ contacts: LIST_RECORDS });
	const list = await deploy(ctx.n8n, erpListAll(ctx.credential, concurrency.listAll));
	const listAll = await profileWorkload(ctx, dir, concurrency.listAll, Math.ceil(LIST_RECORDS / PAGE_SIZE), () => listInN8n(ctx, 'erpNode', list));
	const bulk = await deploy(ctx.n8n, erpCreate(ctx.credential, concurrency.bulkCreate, 'auto'));
	const bulkCreate = await profileWorkload(ctx, dir, concurrency.bulkCreate, BULK_ITEMS, () => createInN8n(ctx, 'erpNode', bulk));
	await ctx.sandbox.reset();
	return { listAll, bulkCreate };
}
