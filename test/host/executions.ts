import type { N8nClient } from './restClient';
import type { Execution } from './types';
import { sleep } from './processes';

/** An execution as the public API lists it; `retryOf`: the execution n8n's Retry ran it for. */
export type ListedExecution = Execution & { retryOf?: string | null };

const FINISHED: Array<Execution['status']> = ['success', 'error', 'canceled', 'crashed'];

/** Whether the execution has ended (its status says so; its data may not be saved yet, see isSaved). */
export const isFinished = (execution: Execution) => FINISHED.includes(execution.status);

/**
 * Whether an execution read with its data has ended and its data is saved. n8n 1.x on SQLite without a
 * connection pool writes the status and the data in two steps, outside a transaction: a successful run can be
 * read for a moment with the data it started with, no node output yet.
 */
export const isSaved = (execution: Execution) =>
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

/**
 * Waits until every execution of the workflow has finished with its data saved and `until` holds for them, and
 * returns them all with their data, oldest first: none still running is missed (an active workflow may run for
 * other events meanwhile). Polls the list without data and reads each execution's data once, when it has finished
 * (again only while n8n 1.x has not saved it yet, see isSaved): a workflow that runs often is not read again and
 * again as its list grows. `timeoutMs` stops a run that never comes; it measures nothing. Then it throws, saying
 * what it saw.
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
		if (Date.now() > deadline) {
			const seen = listed.map((e) => `${e.id} ${e.status}`).join(', ');
			throw new Error(`workflow ${workflowId}: not the executions awaited within ${timeoutMs / 1000} s; saw ${listed.length}: ${seen || 'none'}`);
		}
		await sleep(250);
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
 * Waits until the execution has finished and its data is saved (a manual run answers with its id at once). Polls
 * this one execution without data and reads its data once it has finished: n8n serves no other execution's data,
 * not even those of the sub-workflows it ran.
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

/** The items a node output in an execution (its first run, first output). */
export const outputItems = (execution: Execution, nodeName: string): OutputItem[] =>
	execution.data?.resultData.runData[nodeName]?.[0]?.data?.main[0] ?? [];

/** The JSON of each item a node output in an execution (its first run, first output). */
export const nodeOutput = (execution: Execution, nodeName: string) => outputItems(execution, nodeName).map((item) => item.json);

/** The input item an output item is paired to, or undefined when it is not paired to exactly one. */
export function pairedIndex(item: OutputItem): number | undefined {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? paired[0].item : undefined;
	return paired?.item;
}
