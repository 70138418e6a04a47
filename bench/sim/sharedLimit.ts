/**
 * A quick model of `npm run bench -- --only sharedLimit` without an n8n server: the ERP node runs in n8n-core
 * (tooling/harness) in PROCESSES child processes (queue-mode workers: no memory shared), each running RUNS imports
 * of ITEMS creates at once, against an in-process sandbox limiting to 50 requests a second. Seconds, not minutes:
 * for trying the transport's pacing; the bench's figures stay the ones that count.
 *   node .build/bench/sim/sharedLimit.js [processes=2] [runs=2] [items=250] [headers=on|off|retry-after]
 */
import { fork } from 'node:child_process';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { Erp } from '../../nodes/Erp/Erp.node';
import { startSandbox } from '../../sandbox/server';
import { runNode } from '../../tooling/harness/run-node';
import { contactFields } from '../../nodes/Erp/actions/contact/fields';
import { knownColumns } from '../../nodes/Erp/actions/shared/columns';

const LIMIT = { limit: 50, windowMs: 1000 };
/** Contact › Create's Fields on Map Automatically, as the editor saves it. */
const AUTO_MAP = { mappingMode: 'autoMapInputData', value: null, matchingColumns: [], schema: knownColumns(contactFields), attemptToConvertTypes: false, convertFieldsToString: false };

async function worker(baseUrl: string, token: string, runs: number, items: number, tag: string): Promise<void> {
	const results = await Promise.all(
		Array.from({ length: runs }, async (_, run) => {
			const input = Array.from({ length: items }, (_, i) => ({ first_name: `S${i}`, last_name: 'Sim', email: `${tag}-${run}-${i}@sim.example` }));
			const result = await runNode({
				nodeType: new Erp(),
				credentialType: new ErpApi(),
				credentials: { baseUrl, apiToken: token },
				continueOnFail: true,
				parameters: { resource: 'contact', operation: 'create', columns: AUTO_MAP, options: { concurrency: 5, maxRetries: 5 } },
				input,
			});
			return result.items.filter((item) => item.json.error !== undefined || item.error !== undefined).length;
		}),
	);
	process.send?.({ failed: results.reduce((a, b) => a + b, 0) });
}

async function main(): Promise<void> {
	const [processes = 2, runs = 2, items = 250] = process.argv.slice(2, 5).map(Number);
	const headers = process.argv[5] ?? 'on';
	const variants = { on: [], off: ['silent-rate-limit' as const], 'retry-after': ['retry-after-only' as const] }[headers] ?? [];
	const sandbox = await startSandbox({ port: 0, rateLimit: LIMIT, overdueSweepMs: 0, variants });
	const started = Date.now();
	const failed = await Promise.all(
		Array.from({ length: processes }, (_, p) => {
			const child = fork(__filename, ['worker', sandbox.baseUrl, sandbox.token, String(runs), String(items), `p${p}`]);
			return new Promise<number>((resolve, reject) => {
				child.on('message', (m: { failed: number }) => resolve(m.failed));
				child.on('exit', (code) => code !== 0 && reject(new Error(`worker ${p} exited ${code}`)));
			});
		}),
	);
	const seconds = (Date.now() - started) / 1000;
	const log = sandbox.state.log.since(0).filter((r) => r.path.startsWith('/contacts'));
	const refused = log.filter((r) => r.status === 429).length;
	const minimum = (processes * runs * items) / (LIMIT.limit / (LIMIT.windowMs / 1000));
	console.log(
		JSON.stringify({ processes, runs, items, headers, requests: log.length, refused, refusedShare: +(refused / log.length).toFixed(3), seconds, vsMinimum: +(seconds / minimum).toFixed(3), failed: failed.reduce((a, b) => a + b, 0) }),
	);
	if (process.env.SIM_WINDOWS) console.log(windows(log.map((r) => ({ at: Date.parse(r.at), refused: r.status === 429, who: JSON.stringify(r.body).match(/(p\d)-/)?.[1] ?? '?' })), started));
	await sandbox.close();
}

const byWorker = (marks: string[]) => ['p0', 'p1'].map((w) => `${w}:${marks.filter((m) => m.includes(w)).length}`).join(' ');

/** The sandbox's windows as it opened them: when (after the start), the gap after the last one ended, answered and refused. */
export function windows(requests: Array<{ at: number; refused: boolean; who: string }>, started: number): string {
	const lines: string[] = [];
	let current: { start: number; ok: number; refused: number; marks: string[] } | undefined;
	let lastEnd = started;
	const flush = () => current && lines.push(`${current.start - started} gap ${current.start - lastEnd} ok ${current.ok} refused ${current.refused} ${process.env.SIM_WINDOWS === '2' ? current.marks.join(' ') : byWorker(current.marks)}`);
	for (const r of requests) {
		if (!current || r.at >= current.start + LIMIT.windowMs) {
			flush();
			if (current) lastEnd = current.start + LIMIT.windowMs;
			current = { start: r.at, ok: 0, refused: 0, marks: [] };
		}
		current.marks.push(`${r.at - current.start}${r.who}${r.refused ? 'X' : ''}`);
		if (r.refused) current.refused++;
		else current.ok++;
	}
	flush();
	return lines.join('\n');
}

if (process.argv[2] === 'worker') {
	const [, , , baseUrl, token, runs, items, tag] = process.argv;
	worker(baseUrl, token, Number(runs), Number(items), tag).then(
		() => process.exit(0),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
} else if (require.main === module) void main();
