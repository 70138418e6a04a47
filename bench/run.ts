/**
 * `npm run bench`: the ERP node against n8n's HTTP Request node and a raw HTTP client, inside a real n8n with
 * this package installed, against the sandbox ERP: answering at once on loopback, and 30 ms and 100 ms late as
 * a remote ERP would. Writes the run's raw dump to .runs/bench/, its figures to bench/summary.json, and from the
 * summary the results block of bench/README.md and the figures of docs/speed.md (`--readme-only`: both from the
 * summary alone). Takes about an hour; BENCH_RUNS, BENCH_SWEEP_RUNS, BENCH_SCALE and BENCH_ONLY or `--only`
 * (bench/config.ts) make quick looks. Never part of `npm test`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { SandboxAdmin } from '../sandbox/adminClient';
import { REPO_ROOT } from '../tooling/host/paths';
import { startN8n, stopN8n, type N8nProcess } from '../tooling/host/n8nProcess';
import { stopOnSignals } from '../tooling/host/processes';
import { freePort } from '../tooling/host/ports';
import { startStack, type Stack } from '../tooling/host/stack';
import { CONFIRM_PART, GROWTH_PARTS, KEPT_PARTS, LOOPBACK_PARTS, ONLY, PARTS, SHARED_LIMIT_PART, POLLING_RECORDS, POLLING_REMOTE, PROFILE_DEFAULT_CONCURRENCY, REMOTE_LATENCIES_MS, RUNS, SCALE, SWEEP_RUNS } from './config';
import type { BenchContext } from './context';
import { installFloor } from './floor/install';
import { describeMachine, loadAvg1 } from './machine';
import { profile, type ProfileResult } from './profile';
import { readSummary, writeRunDump, writeSummary } from './published';
import { RawWorker } from './rawWorker';
import { writeReadmes } from './readme';
import { assembleResults, type Growth, type Loopback } from './results';
import { growthSummary, remoteSummary, summarize, withTargets, type Summary } from './summary';
import { confirmTargets } from './targets';
import { confirm } from './workloads/confirm';
import { writeConfirmReadme } from './workloads/confirmReadme';
import { bulkCreate } from './workloads/bulkCreate';
import { inParts } from './workloads/inParts';
import { limit, type N8nControl } from './workloads/limit';
import { listAll } from './workloads/listAll';
import { pollingCost, type PollCost } from './workloads/pollingCost';
import { pollingRemote, type RemotePollCost } from './workloads/pollingRemote';
import { rateLimited } from './workloads/rateLimited';
import { remote, type RemoteResult } from './workloads/remote';
import { scaling } from './workloads/scaling';
import { sharedLimit, type SharedLimitResult } from './workloads/sharedLimit';

const OWNER = { email: 'bench@example.com', password: 'Bench-passw0rd', firstName: 'Bench', lastName: 'Mark' };
const BUSY_LOAD = 0.8;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** The loopback workloads BENCH_ONLY asks for: all three unless it names some. */
async function loopback(ctx: BenchContext): Promise<Partial<Loopback>> {
	const want = (part: (typeof LOOPBACK_PARTS)[number]) => ONLY.includes(part);
	return {
		...(want('listAll') && { listAll: await listAll(ctx) }),
		...(want('bulkCreate') && { bulkCreate: await bulkCreate(ctx) }),
		...(want('rateLimited') && { rateLimited: await rateLimited(ctx) }),
	};
}

const isComplete = (local: Partial<Loopback>): local is Loopback => LOOPBACK_PARTS.every((part) => local[part] !== undefined);

/** n8n loads bench/profile/hook.js, which profiles its main process on a signal (inherited through the environment). */
function loadProfilerHook(): string {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-erp-bench-profile-'));
	process.env.BENCH_PROFILE_DIR = dir;
	process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'profile', 'hook.js')}`.trim();
	return dir;
}

/** A run of every part at full size replaces the published figures; without the growth parts it keeps theirs. */
const keptParts = KEPT_PARTS.filter((part) => !ONLY.includes(part));
const complete = PARTS.every((part) => ONLY.includes(part) || keptParts.includes(part as (typeof KEPT_PARTS)[number])) && SCALE === 1;
/** The growth parts alone at full size replace their own figures and keep the rest. */
const growthOnly = ONLY.filter((part) => part !== SHARED_LIMIT_PART && part !== CONFIRM_PART).every((part) => (GROWTH_PARTS as readonly string[]).includes(part)) && SCALE === 1;

/** The remote parts alone at full size replace their own figures (each dated) and keep the rest. */
const remotesOnly = ONLY.every((part) => /^remote\d+$/.test(part)) && SCALE === 1;

/** Starts n8n again on the same port and user folder after the limit probe killed it; `stopped` stops the last one started. */
function n8nControl(stack: Stack): N8nControl & { stop(): Promise<void> } {
	let current: N8nProcess = stack.n8n;
	let restarted = false;
	return {
		logFile: stack.n8n.logFile,
		async restart() {
			await stopN8n(current);
			current = await startN8n({ install: stack.install, userFolder: stack.userFolder, port: Number(new URL(stack.n8n.baseUrl).port), brokerPort: await freePort() });
			restarted = true;
			return current.pid;
		},
		async stop() {
			if (restarted) await stopN8n(current);
		},
	};
}

/** Publishes `summary`: bench/summary.json, and bench/README.md and docs/speed.md from it. */
function publish(summary: Summary, what: string): void {
	writeSummary(summary);
	writeReadmes(REPO_ROOT, summary);
	log(`wrote ${what} into bench/summary.json, bench/README.md and docs/speed.md`);
}

const logTargets = (summary: Pick<Summary, 'targets'>) => {
	for (const target of summary.targets) log(`${target.met ? 'met    ' : 'NOT MET'} ${target.workload}: ${target.goal} (${target.value})`);
};

/** The polling trigger's parts: per poll on loopback, and against a remote ERP within a poll's budget. */
async function polling(): Promise<{ costs: PollCost[]; remote: RemotePollCost[] }> {
	const costs = await pollingCost(POLLING_RECORDS);
	const { latencyMs, budgetMs, contacts, products } = POLLING_REMOTE;
	return { costs, remote: await pollingRemote(contacts, products, latencyMs, budgetMs) };
}

async function main(): Promise<void> {
	if (process.argv.includes('--readme-only')) {
		// After a change to the README's generator: the same figures, written again.
		writeReadmes(REPO_ROOT, readSummary());
		log('wrote bench/README.md and docs/speed.md from bench/summary.json');
		return;
	}
	if (loadAvg1() > BUSY_LOAD) log(`the 1-minute load is ${loadAvg1()}: other work on this machine will skew the figures`);
	let shared: SharedLimitResult | undefined;
	if (ONLY.includes(SHARED_LIMIT_PART)) {
		// Its own n8n and cluster, before the bench's stack: it needs neither.
		shared = await sharedLimit(log, readSummary().sharedLimit?.before);
		log(`sharedLimit's figures: ${writeRunDump('sharedLimit', shared)}`);
		if (SCALE === 1) publish({ ...readSummary(), sharedLimit: shared }, 'sharedLimit');
		if (ONLY.length === 1) return;
	}
	let confirmed: Summary['confirm'];
	if (ONLY.includes(CONFIRM_PART)) {
		// Its own n8n and sandbox, before the bench's stack, like sharedLimit.
		const result = await confirm(log);
		confirmed = { ...result, targets: confirmTargets(result) };
		logTargets(confirmed);
		log(`confirm's figures: ${writeRunDump('confirm', confirmed)}`);
		if (SCALE === 1) {
			writeSummary({ ...readSummary(), confirm: confirmed });
			writeConfirmReadme(REPO_ROOT, confirmed);
			log('wrote confirm into bench/summary.json and bench/README.md');
		}
		if (ONLY.length === 1 || (ONLY.length === 2 && ONLY.includes(SHARED_LIMIT_PART))) return;
	}
	let stack: Stack | undefined;
	let raw: RawWorker | undefined;
	let control: ReturnType<typeof n8nControl> | undefined;
	stopOnSignals(async () => {
		await control?.stop();
		await stack?.stop();
	}, log);
	const profileDir = loadProfilerHook();
	try {
		// No rate limit and no timers in the sandbox unless a workload sets one.
		stack = await startStack({ owner: OWNER, sandbox: { rateLimit: null, overdueSweepMs: 0 }, log, beforeBoot: installFloor });
		const install = stack.install;
		const machine = describeMachine(install.nodeBin);
		raw = RawWorker.start(stack.install.nodeBin);
		const ctx: BenchContext = {
			n8n: stack.client,
			sandbox: new SandboxAdmin(stack.sandbox.url),
			api: { baseUrl: stack.sandbox.baseUrl, token: stack.sandbox.token },
			credential: stack.credential,
			raw,
			n8nPid: stack.n8n.pid,
			runs: RUNS,
			log,
		};
		control = n8nControl(stack);
		// These parts may be run alone, long after the rest: each carries its own date and machine facts.
		const stamped = async <T>(result: Promise<T>) => {
			const facts = { date: new Date().toISOString(), n8n: stack?.install.version ?? '?', machine: describeMachine(install.nodeBin) };
			return { ...facts, ...(await result) };
		};
		const growth: Growth = {
			...(ONLY.includes('scaling') && { scaling: await stamped(scaling(ctx)) }),
			...(ONLY.includes('inParts') && { inParts: await stamped(inParts(ctx)) }),
			...(ONLY.includes('polling') && { polling: await stamped(polling()) }),
		};
		const remotes: RemoteResult[] = [];
		for (const latencyMs of REMOTE_LATENCIES_MS) if (ONLY.includes(`remote${latencyMs}`)) remotes.push(await stamped(remote(ctx, latencyMs)));
		const local = await loopback(ctx);
		const profiled: ProfileResult | undefined = ONLY.includes('profile')
			? await profile(ctx, profileDir, {
					listAll: local.listAll?.concurrency ?? PROFILE_DEFAULT_CONCURRENCY.listAll,
					bulkCreate: local.bulkCreate?.concurrency ?? PROFILE_DEFAULT_CONCURRENCY.bulkCreate,
				})
			: undefined;
		// Last: n8n may not survive it.
		if (ONLY.includes('limit')) growth.limit = await stamped(limit(ctx, control));
		machine.loadAvg.end = loadAvg1();

		if (growthOnly || remotesOnly) {
			const parts = { ...growth, ...Object.fromEntries(remotes.map((one) => [`remote${one.latency_ms}`, one])) };
			log(`the run's figures: ${writeRunDump(Object.keys(parts).join('-'), { machine, ...parts })}`);
			const summary = withTargets({ ...readSummary(), ...growthSummary(growth), ...Object.fromEntries(remotes.map((one) => [`remote${one.latency_ms}`, remoteSummary(one)])) });
			logTargets(summary);
			publish(summary, Object.keys(parts).join(' and '));
			return;
		}
		if (!complete || !isComplete(local) || !profiled) {
			const file = writeRunDump('partial', { scale: SCALE, only: ONLY, machine, remotes, loopback: local, profile: profiled, ...growth });
			log(`a partial run (BENCH_ONLY or BENCH_SCALE): its figures are in ${file}; bench/summary.json and bench/README.md are unchanged`);
			return;
		}
		const head = { n8n: stack.install.version, runs: RUNS, sweepRuns: SWEEP_RUNS, machine };
		const results = assembleResults(head, local, profiled, remotes, growth);
		log(`the run's figures: ${writeRunDump('full', { ...results, ...(shared && { sharedLimit: shared }), ...(confirmed && { confirm: confirmed }) })}`);
		const published = readSummary();
		const kept = Object.fromEntries(keptParts.map((part) => [part, published[part]]));
		const summary = withTargets({ ...summarize(results), ...kept, ...(shared && { sharedLimit: shared }), ...(confirmed && { confirm: confirmed }) });
		logTargets(summary);
		publish(summary, 'the whole run');
	} finally {
		raw?.stop();
		await control?.stop();
		await stack?.stop();
		rmSync(profileDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exit(1);
});
