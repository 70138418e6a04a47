import { ensureExpressionEngine } from './environment';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
} from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import { buildWorkflow } from './workflow';

export interface RunNodeOptions {
	/** An instance of the node, e.g. `new Erp()`. */
	nodeType: INodeType;
	parameters: INodeParameters;
	/** The credential type the node uses, e.g. `new ErpApi()`. */
	credentialType?: ICredentialType;
	/** What the user typed into the credential, e.g. `{ baseUrl, apiToken }`. */
	credentials?: ICredentialDataDecryptedObject;
	/** The json of the input items; default one empty item. */
	input?: IDataObject[];
	/** The node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Default: the node's default version. */
	typeVersion?: number;
	/** Cancels the execution (as the editor's Stop button does) once this promise settles. */
	cancelWhen?: Promise<unknown>;
}

export interface RunNodeResult {
	/** The items on the node's first output. */
	items: INodeExecutionData[];
	/** Every output of the node, in order. */
	outputs: INodeExecutionData[][];
	/**
	 * What n8n recorded for the node when it failed, else the workflow's error. n8n records a copy of the thrown
	 * error's fields (`{ ...error, message, stack }`), so assert with `toMatchObject({ name: 'NodeApiError',
	 * message, description, httpCode })`, not `instanceof`.
	 */
	error?: ExecutionBaseError | Error;
}

let executionCount = 0;

/**
 * Runs one node in n8n-core's real WorkflowExecute: a Start node emits the input items into the node under test.
 * Parameters (expressions, resource locators, defaults) and credentials (`authenticate`, real HTTP) are handled
 * by n8n's own code.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureExpressionEngine();
	const { workflow, workflowData, node, start, credentialsHelper } = buildWorkflow(options);

	const executionId = `harness-${++executionCount}`;
	const hooks = new ExecutionLifecycleHooks('manual', executionId, workflowData);
	const additionalData = createAdditionalData({ credentialsHelper, hooks, executionId });
	const items: INodeExecutionData[] = (options.input ?? [{}]).map((json, item) => ({
		json,
		pairedItem: { item },
	}));
	const runExecutionData = createRunExecutionData({
		executionData: { nodeExecutionStack: [{ node: start, data: { main: [items] }, source: null }] },
	});

	const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	// Cancel when the promise settles either way; a rejection must not go unhandled.
	const cancel = () => execution.cancel();
	void options.cancelWhen?.then(cancel, cancel);
	const run = await execution;

	const { runData, error: workflowError } = run.data.resultData;
	const task = runData[node.name]?.[0];
	const outputs = (task?.data?.main ?? []).map((output) => output ?? []);
	return { items: outputs[0] ?? [], outputs, error: task?.error ?? workflowError };
}
