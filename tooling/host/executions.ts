import type { N8nClient } from './restClient';
import type { Execution } from './types';
import { sleep } from './processes';

/** An execution as the public API lists it; `retryOf`: the execution n8n's Retry ran it for. */
export type ListedExecution = Execution & { retryOf?: string | null };

const FINISHED: Array<Execution['status']> = ['success', 'error', 'canceled', 'crashed'];

/** Whether the execution has ended (its status says so; its data may not be saved yet, see isSaved). */
const isFinished = (execution: Execution) => FINISHED.includes(execution.status);

/**
 * Whether an execution read with its data has ended and its data is saved: n8n 1.x on SQLite writes status and data
 * in two steps outside a transaction, so a successful run can be read for a moment without node output.
 */
const isSaved = (execution: Execution) =>
	isFinished(execution) && (execution.status !== 'success' || Object.keys(execution.data?.resultData.runData ?? {}).length > 0);

/** Every execution of the workflow, oldest first, page by page through the public API (a page holds 100). */
export async function allExecutions(n8n: N8nClient, workflowId: string, includeData = false): Promise<ListedExecution[]> {
	const all: ListedExecution[] = [];
	let cursor: string | null | undefined;
	do {
		const query = `workflowId=${workflowId}&includeData=${includeData}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
		const page = await n8n.publicApi<{ data: ListedExecution[]; nextCursor?: string | null }>(`/executions?${query}`);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return all.reverse();
}

/** `until` for waitForExecutions: at least `count` executions, of those `where` accepts. */
export const atLeast =
	(count: number, where: (execution: Execution) => boolean = () => true) =>
	(executions: Execution[]) =>
		executions.filter(where).length >= count;

const seen = (listed: Execution[]) => `saw ${listed.length}: ${listed.map((e) => `${e.id} ${e.status}`).join(', ') || 'none'}`;

/**
 * Waits until every execution of the workflow has finished with its data saved and `until` holds for them; returns
 * them all with their data, oldest first (none still running is missed: an active workflow may run for other events).
 * Polls the list without data and reads each one's data once it has finished (again only while n8n 1.x has not saved
 * it): a workflow that runs often is not read again and again. At `timeoutMs` (it measures nothing) it throws what it saw.
 */
export async function waitForExecutions(
	n8n: N8nClient,
	workflowId: string,
	until: (executions: ListedExecution[]) => boolean = atLeast(1),
	timeoutMs = 30_000,
): Promise<ListedExecution[]> {
	const deadline = Date.now() + timeoutMs;
	const saved = new Map<string, ListedExecution>();
	for (;;) {
		const listed = await allExecutions(n8n, workflowId);
		if (listed.every(isFinished)) {
			for (const execution of listed.filter((e) => !saved.has(e.id))) {
				const withData = await n8n.execution(execution.id);
				if (isSaved(withData)) saved.set(execution.id, { ...execution, ...withData });
			}
			const executions = listed.flatMap((e) => saved.get(e.id) ?? []);
			if (executions.length === listed.length && until(executions)) return executions;
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId}: not the executions awaited within ${timeoutMs / 1000} s; ${seen(listed)}`);
		await sleep(250);
	}
}

/**
 * Waits until the workflow's executions have all finished, at least `fewest` of them, their number unchanged over two
 * lists `stillMs` apart, and returns them all with their data, oldest first: for a count known only as a lower bound
 * (n8n's own 503, "Database is not ready!", starts none). Lists without data while waiting, then reads each one's data
 * once, a page at a time (again only while n8n 1.x has not saved it). At `timeoutMs` it throws what it saw.
 */
export async function executionsAtRest(n8n: N8nClient, workflowId: string, fewest: number, stillMs = 3000, timeoutMs = 300_000): Promise<ListedExecution[]> {
	const deadline = Date.now() + timeoutMs;
	let last = -1;
	for (;;) {
		const listed = await allExecutions(n8n, workflowId);
		if (listed.length >= fewest && listed.length === last && listed.every(isFinished)) {
			const all = await allExecutions(n8n, workflowId, true);
			return await Promise.all(all.map(async (e) => (isSaved(e) ? e : { ...e, ...(await finishedExecution(n8n, e.id)) })));
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId}: not at least ${fewest} executions, all finished and holding still, within ${timeoutMs / 1000} s; ${seen(listed)}`);
		last = listed.length;
		await sleep(stillMs);
	}
}

/** The first execution of the workflow in which node `nodeName` output an item matching `predicate`. */
export async function findExecution(
	n8n: N8nClient,
	workflowId: string,
	nodeName: string,
	predicate: (json: Record<string, unknown>) => boolean,
	timeoutMs?: number,
): Promise<Execution> {
	const match = (execution: Execution) => nodeOutput(execution, nodeName).some(predicate);
	const [found] = (await waitForExecutions(n8n, workflowId, atLeast(1, match), timeoutMs)).filter(match);
	return found;
}

/**
 * Waits until the execution has finished and its data is saved (a manual run answers with its id at once), polling it
 * without data, then reading its data once: no other execution's, not even its sub-workflows'.
 */
export async function finishedExecution(n8n: N8nClient, id: string, timeoutMs = 30_000): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.execution(id, false);
		if (isFinished(execution)) {
			const withData = await n8n.execution(id);
			if (isSaved(withData)) return withData;
		}
		if (Date.now() > deadline) throw new Error(`execution ${id}: not finished with its data saved within ${timeoutMs / 1000} s; last seen ${execution.status}`);
		await sleep(250);
	}
}

/** An item as n8n stores it in an execution, with the input item it came from. */
export interface OutputItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }> | number;
}

/** The items a node output in an execution (its first run; `output` 0 unless it has several). */
export const outputItems = (execution: Execution, nodeName: string, output = 0): OutputItem[] =>
	execution.data?.resultData.runData[nodeName]?.[0]?.data?.main[output] ?? [];

/** The JSON of each item a node output in an execution (its first run, first output); none when it did not run. */
export const nodeOutput = (execution: Execution, nodeName: string) => outputItems(execution, nodeName).map((item) => item.json);

/** The input item an output item is paired to, or undefined when it is not paired to exactly one. */
export function pairedIndex(item: OutputItem): number | undefined {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? paired[0].item : undefined;
	return paired?.item;
}
