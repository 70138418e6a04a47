import './environment';

import type { ExecutionLifecycleHooks } from 'n8n-core';
import { ExternalSecretsProxy } from 'n8n-core';
import type { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

/** Where the harness pretends n8n runs unless a test server gives a real address. */
export const DEFAULT_INSTANCE_URL = 'http://localhost:5678';

function unavailable(feature: string): () => never {
	return () => {
		throw new UnexpectedError(`${feature} is not available in the test harness`);
	};
}

/**
 * What n8n's WorkflowExecuteAdditionalData.getBase() gives an execution, reduced to what one node needs:
 * the credentials helper, the instance's URLs, hooks, and no sub-workflows, task runners or variables.
 */
export function createAdditionalData(options: {
	credentialsHelper: ICredentialsHelper;
	hooks?: ExecutionLifecycleHooks;
	instanceUrl?: string;
	executionId?: string;
}): IWorkflowExecuteAdditionalData {
	const base = (options.instanceUrl ?? DEFAULT_INSTANCE_URL).replace(/\/+$/, '');
	return {
		credentialsHelper: options.credentialsHelper,
		hooks: options.hooks,
		executionId: options.executionId,
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: unavailable('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unavailable('A task runner (Code node)'),
		logAiEvent: () => undefined,
		currentNodeExecutionIndex: 0,
		variables: {},
		instanceBaseUrl: `${base}/`,
		restApiUrl: `${base}/rest`,
		webhookBaseUrl: `${base}/webhook`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		formBaseUrl: `${base}/form`,
		formTestBaseUrl: `${base}/form-test`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
	};
}
