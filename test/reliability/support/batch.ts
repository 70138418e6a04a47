import { atLeast, type OutputItem, outputItems, waitForExecutions } from '../../../tooling/host/executions';
import type { Execution } from '../../../tooling/host/types';
import { chain, erpNode, splitOutNode, webhookNode } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';
import { sleep } from '../../../tooling/host/processes';
import { erpApi } from '../../../tooling/host/erpApi';
import type { SandboxAdmin } from '../../../sandbox/adminClient';
import type { RequestLogEntry } from '../../../sandbox/requestLog';

export interface BatchRun {
	execution: Execution;
	/** The ERP node's output items, with their pairing. */
	items: OutputItem[];
	/** The sandbox's last request log entry before the run: what it received since is the run's. */
	since: number;
	workflowId: string;
}

// A big run finishes in minutes; this only stops a hung one from blocking the suite forever.
const RUN_LIMIT_MS = 12 * 60_000;

/**
 * Runs the ERP node with On Error: Continue over `inputs` (one item each) in a real, active workflow (Webhook
 * answering at once → Split Out → ERP), returning the execution as n8n saved it; `afterStart` runs meanwhile.
 */
export async function runBatch(
	session: ReliabilitySession,
	name: string,
	erpParameters: Record<string, unknown>,
	inputs: object[],
	afterStart?: (since: number) => Promise<void>,
): Promise<BatchRun> {
	const path = `reliability-${name}-${Date.now()}`;
	const erp = erpNode(erpParameters, session.ctx.credentials.good);
	erp.onError = 'continueRegularOutput';
	const workflow = await session.n8n.createActiveWorkflow(chain(`reliability ${name}`, [webhookNode(path, 'onReceived'), splitOutNode('body.items', { include: 'noOtherFields' }), erp]));

	const since = await session.sandbox.lastRequestSeq();
	const started = await session.n8n.callWebhook(path, { items: inputs });
	if (started.status !== 200) throw new Error(`n8n answered ${started.status} to the webhook: ${JSON.stringify(started.body)}`);
	await afterStart?.(since);
	const [execution] = await waitForExecutions(session.n8n, workflow.id, atLeast(1), RUN_LIMIT_MS);
	return { execution, items: outputItems(execution, erp.name), since, workflowId: workflow.id };
}

/**
 * Waits until the sandbox has processed every request of the run, then clears the faults. A late answer is still
 * delayed after n8n gave up on it; a request sent now with the same delay comes after all earlier ones (`lateMs`
 * waits out one a queued fault delays). Answers that request's sequence number: the run's requests come before it.
 */
export async function settle(session: ReliabilitySession, lateMs = 0): Promise<number> {
	await session.sandbox.setFaults({ errorRate: 0, dropRate: 0, nonJsonRate: 0, rateLimit: null });
	await session.sandbox.clearFaultQueue();
	await sleep(lateMs);
	await erpApi(session.ctx, 'GET', '/contacts?per_page=1');
	await session.sandbox.clearFaults();
	return await session.sandbox.lastRequestSeq();
}

/**
 * runBatch after `prepare` (which queues the run's faults), then settle whatever happened: the run, the records of
 * `resource` afterwards, and the requests of the run.
 */
export async function settledBatch<R extends 'contacts' | 'orders'>(
	session: ReliabilitySession,
	name: string,
	erpParameters: Record<string, unknown>,
	inputs: object[],
	resource: R,
	{ prepare, lateMs = 0 }: { prepare?: () => Promise<unknown>; lateMs?: number } = {},
) {
	let run: BatchRun;
	let settled: number;
	try {
		await prepare?.();
		run = await runBatch(session, name, erpParameters, inputs);
	} finally {
		settled = await settle(session, lateMs);
	}
	const after = await session.sandbox.records(resource);
	const requests: RequestLogEntry[] = (await session.sandbox.requests(run.since)).filter((r) => r.seq < settled);
	return { run, after, requests };
}

/** How long n8n says the execution ran (-1: it did not stop). */
export const executionMs = ({ startedAt, stoppedAt }: Execution) => (stoppedAt ? Date.parse(stoppedAt) - Date.parse(startedAt) : -1);

/** Error items with the same message and description, and how many, most first. */
export const errorMessages = (errors: Array<Record<string, unknown>>) =>
	Object.entries(countBy(errors, (json) => `${String(json.error)} — ${String(json.description)}`))
		.map(([message, items]) => ({ message, items }))
		.sort((a, b) => b.items - a.items);

/** Why a run fails: `${count} ${what}` for each check whose count must be 0 and is not. */
export const nonZero = (checks: Array<[what: string, count: number]>) => checks.filter(([, count]) => count > 0).map(([what, count]) => `${count} ${what}`);

/** A few examples of each kind of problem, in words: `note` one, `list` them all. */
export function examples(each = 3) {
	const byKind: Record<string, string[]> = {};
	return {
		note(kind: string, text: string) {
			const list = (byKind[kind] ??= []);
			if (list.length < each) list.push(`${kind}: ${text}`);
		},
		list: () => Object.values(byKind).flat(),
	};
}

const RESOURCES = ['contacts', 'invoices', 'products', 'employees'] as const;

/** Every record the ERP holds, as JSON by resource and id. */
export async function snapshot(sandbox: SandboxAdmin): Promise<Map<string, string>> {
	const records = new Map<string, string>();
	for (const resource of RESOURCES) {
		for (const record of await sandbox.records(resource)) records.set(`${resource}/${record.id}`, JSON.stringify(record));
	}
	return records;
}

/** How many records were added, changed or removed between two snapshots. */
export function changedRecords(before: Map<string, string>, after: Map<string, string>): number {
	const keys = new Set([...before.keys(), ...after.keys()]);
	return [...keys].filter((key) => before.get(key) !== after.get(key)).length;
}

/** Signs that an error comes from a bug, not a rule: a JavaScript error leaking through, or a value printed without being turned into text. */
const CRASH = /Cannot read propert|Cannot set propert|is not a function|is not defined|is not iterable|Maximum call stack|\bundefined\b|\bNaN\b|\[object Object\]/;

export const CRASH_ERROR_NAMES = ['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError'];

export const looksLikeCrash = (text: string): boolean => CRASH.test(text);

/** The total of one count over scenarios or runs. */
export const sum = <K extends string>(rows: Array<Record<K, number>>, field: K) => rows.reduce((total, row) => total + row[field], 0);

/** The totals of several counts over scenarios or runs. */
export const sums = <K extends string>(rows: Array<Record<K, number>>, fields: readonly K[]) =>
	Object.fromEntries(fields.map((field) => [field, sum(rows, field)])) as Record<K, number>;

/** How many of `values` share each key. */
export const countBy = <T>(values: T[], keyOf: (value: T) => string) =>
	values.reduce<Record<string, number>>((counts, value) => {
		const key = keyOf(value);
		counts[key] = (counts[key] ?? 0) + 1;
		return counts;
	}, {});
