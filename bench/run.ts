/**
 * `npm run bench`: the ERP node against n8n's HTTP Request node and a raw HTTP client, inside a real n8n with
 * this package installed, against the sandbox ERP on loopback. Writes bench/results.json and the results block
 * of bench/README.md. Takes about ten minutes; BENCH_RUNS=1 for a quick look. Never part of `npm test`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';

import { SandboxAdmin } from '../sandbox/adminClient';
import { REPO_ROOT } from '../e2e/host/paths';
import { exitOnSignals } from '../e2e/host/processGroup';
import { startStack, type Stack } from '../e2e/host/stack';
import { RUNS } from './config';
import type { BenchContext } from './context';
import { describeMachine, loadAvg1 } from './machine';
import { findN8nMainPid } from './n8nProcess';
import { RawWorker } from './rawWorker';
import { writeReadme } from './readme';
import { assembleResults } from './results';
import { evaluateTargets } from './targets';
import { bulkCreate } from './workloads/bulkCreate';
import { listAll } from './workloads/listAll';
import { rateLimited } from './workloads/rateLimited';

const OWNER = { email: 'bench@example.com', password: 'Bench-passw0rd', firstName: 'Bench', lastName: 'Mark' };
const BUSY_LOAD = 0.8;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

async function main(): Promise<void> {
	exitOnSignals();
	if (loadAvg1() > BUSY_LOAD) log(`the 1-minute load is ${loadAvg1()}: other work on this machine will skew the figures`);
	let stack: Stack | undefined;
	let raw: RawWorker | undefined;
	try {
		// No rate limit and no timers in the sandbox unless a workload sets one.
		stack = await startStack({ owner: OWNER, sandbox: { rateLimit: null, overdueSweepMs: 0 }, log });
		const machine = describeMachine(stack.install.nodeBin);
		raw = RawWorker.start(stack.install.nodeBin);
		const ctx: BenchContext = {
			n8n: stack.client,
			sandbox: new SandboxAdmin(stack.sandbox.url),
			api: { baseUrl: stack.sandbox.baseUrl, token: stack.sandbox.token },
			credential: stack.credential,
			raw,
			n8nPid: findN8nMainPid(stack.install.n8nBin, stack.userFolder),
			runs: RUNS,
			log,
		};
		const list = await listAll(ctx);
		const bulk = await bulkCreate(ctx);
		const rate = await rateLimited(ctx);
		machine.loadAvg.end = loadAvg1();

		const results = assembleResults(stack.install.version, RUNS, machine, list, bulk, rate, evaluateTargets(list, bulk, rate));
		const dir = path.join(REPO_ROOT, 'bench');
		writeFileSync(path.join(dir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
		writeReadme(path.join(dir, 'README.md'), results);
		for (const target of results.targets) log(`${target.met ? 'met    ' : 'NOT MET'} ${target.workload}: ${target.goal} (${target.value})`);
		log('wrote bench/results.json and bench/README.md');
	} finally {
		raw?.stop();
		await stack?.stop();
	}
}

main().catch((error: unknown) => {
	log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
	process.exit(1);
});
