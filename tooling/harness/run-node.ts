import { ensureExpressionEngine } from './environment';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { ExecutionBaseError, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { additionalData, buildWorkflow, type NodeUnderTest } from './workflow';

export interface RunNodeOptions extends Omit<NodeUnderTest, 'webhookId' | 'staticData'> {
	/** The json of the input items; default one empty item. */
	input?: IDataObject[];
	/** Cancels the execution (as the editor's Stop button does) once this promise settles. */
	cancelWhen?: Promise<unknown>;
}

export interface RunNodeResult {
	/** The items on the node's first output. */
	items: INodeExecutionData[];
	/** Every output of the node, in order. */
	outputs: INodeExecutionData[][];
	/** What n8n recorded for the failed node (a copy of the error's fields: assert with `toMatchObject`, not `instanceof`), else the workflow's error. */
	error?: ExecutionBaseError | Error;
}

let executionCount = 0;

/** Runs the node in n8n-core's WorkflowExecute, fed by Start: parameters and credentials are n8n's own code's job. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureExpressionEngine();
	const harness = buildWorkflow(options);
	const { workflow, workflowData, node, start } = harness;
	const executionId = `harness-${++executionCount}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const items = (options.input ?? [{}]).map((json, item) => ({ json, pairedItem: { item } }));
	const runExecutionData = createRunExecutionData({ executionData: { nodeExecutionStack: [{ node: start, data: { main: [items] }, source: null }] } });

	const execution = new WorkflowExecute({ ...additionalData(harness), hooks, executionId }, 'manual', runExecutionData).processRunExecutionData(workflow);
	// Cancel when the promise settles either way; a rejection must not go unhandled.
	const cancel = () => execution.cancel();
	void options.cancelWhen?.then(cancel, cancel);
	const { runData, error } = (await execution).data.resultData;
	const task = runData[node.name]?.[0];
	const outputs = (task?.data?.main ?? []).map((output) => output ?? []);
	return { items: outputs[0] ?? [], outputs, error: task?.error ?? error };
}
