import { sleep } from '../../host/processGroup';
import type { N8nClient } from '../../host/restClient';
import type { Execution } from '../../host/types';
import { isFinished, isSaved } from '../../host/executions';

/** An item as n8n stores it in an execution, with the input item it came from. */
export interface OutputItem {
	json: Record<string, unknown>;
	pairedItem?: { item: number } | Array<{ item: number }> | number;
}

/**
 * Waits for the workflow's first execution to finish and returns it with its data. Polls the list without
 * data (a big execution is fetched once it has ended, and again only while its data is not saved yet).
 * `timeoutMs` is a safety net for a hung run, not a measurement.
 */
export async function finishedRun(n8n: N8nClient, workflowId: string, timeoutMs: number): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const { data } = await n8n.publicApi<{ data: Execution[] }>(`/executions?workflowId=${workflowId}&limit=5`);
		const done = data.find(isFinished);
		if (done) {
			const execution = await n8n.execution(done.id);
			if (isSaved(execution)) return execution;
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId} did not finish a run within ${timeoutMs / 1000} s`);
		await sleep(500);
	}
}

/** The items a node output in an execution (its first run, first output). */
export function outputItems(execution: Execution, nodeName: string): OutputItem[] {
	const run = execution.data?.resultData.runData[nodeName]?.[0];
	return (run?.data?.main[0] ?? []) as OutputItem[];
}

/** The input item an output item is paired to, or undefined when it is not paired to exactly one. */
export function pairedIndex(item: OutputItem): number | undefined {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return paired.length === 1 ? paired[0].item : undefined;
	return paired?.item;
}
