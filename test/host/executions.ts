import type { N8nClient } from './restClient';
import type { Execution } from './types';
import { sleep } from './processGroup';

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

/**
 * Waits until the workflow has `count` finished executions (n8n saves an execution just after it ends) and
 * returns them, oldest first. Gives up after `timeoutMs` with what it saw.
 */
export async function finishedExecutions(n8n: N8nClient, workflowId: string, count = 1, timeoutMs = 30_000): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const finished = (await n8n.executions(workflowId)).filter(isSaved).reverse();
		if (finished.length >= count || Date.now() > deadline) return finished;
		await sleep(200);
	}
}

/** Waits until the execution has finished and its data is saved (a manual run answers with its id at once). */
export async function finishedExecution(n8n: N8nClient, id: string, timeoutMs = 30_000): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.execution(id);
		if (isSaved(execution) || Date.now() > deadline) return execution;
		await sleep(200);
	}
}

/** The JSON of each item a node output in an execution (its first run, first output). */
export function nodeOutput(execution: Execution, nodeName: string): Array<Record<string, unknown>> {
	const run = execution.data?.resultData.runData[nodeName]?.[0];
	return (run?.data?.main[0] ?? []).map((item) => item.json);
}

/**
 * Waits for a finished execution of the workflow in which node `nodeName` output an item matching
 * `predicate` (an active workflow may also run for other events meanwhile).
 */
export async function findExecution(
	n8n: N8nClient,
	workflowId: string,
	nodeName: string,
	predicate: (json: Record<string, unknown>) => boolean,
	timeoutMs = 30_000,
): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = (await n8n.executions(workflowId)).find((e) => isFinished(e) && nodeOutput(e, nodeName).some(predicate));
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`no execution of workflow ${workflowId} in which ${nodeName} output such an item within ${timeoutMs / 1000} s`);
		await sleep(200);
	}
}

/**
 * Waits until `count` saved executions of the workflow match `predicate` and returns them, oldest first. Gives up
 * after `timeoutMs` with what it saw.
 */
export async function executionsWhere(
	n8n: N8nClient,
	workflowId: string,
	predicate: (execution: Execution) => boolean,
	count: number,
	timeoutMs = 30_000,
): Promise<Execution[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = (await n8n.executions(workflowId)).filter((e) => isSaved(e) && predicate(e)).reverse();
		if (found.length >= count || Date.now() > deadline) return found;
		await sleep(200);
	}
}
