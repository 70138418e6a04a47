// Transport tests in n8n: a probe node drives the transport inside n8n-core's WorkflowExecute over real HTTP.
import type { IDataObject } from 'n8n-workflow';

import { ErpApi } from '../../../../credentials/ErpApi.credentials';
import { runNode } from '../../../../tooling/harness/run-node';
import type { RunNodeResult } from '../../../../tooling/harness/run-node';
import type { TestSandbox } from '../../../../tooling/harness/sandbox';
import type { ProbeCall } from './fixtures/ErpTransportProbe.node';
import { ErpTransportProbe } from './fixtures/ErpTransportProbe.node';

export interface ProbeRun {
	baseUrl: string;
	apiToken?: string;
	calls: ProbeCall[];
	options?: IDataObject;
	cancelWhen?: Promise<unknown>;
}

let runs = 0;

/**
 * Runs the probe node in n8n's WorkflowExecute: one input item per call. Without a token (a scripted ERP takes any),
 * each run has one of its own: an ERP of its own for the rate controller, so no wait named to an earlier test holds it.
 */
export async function runProbe(run: ProbeRun): Promise<RunNodeResult> {
	return await runNode({
		nodeType: new ErpTransportProbe(),
		credentialType: new ErpApi(),
		credentials: { baseUrl: run.baseUrl, apiToken: run.apiToken ?? `scripted-token-${++runs}` },
		parameters: { call: '={{ JSON.stringify($json.call) }}', transportOptions: JSON.stringify(run.options ?? {}) },
		input: run.calls.map((call) => ({ call: call as unknown as IDataObject })),
		cancelWhen: run.cancelWhen,
	});
}

/** Runs the probe against the sandbox's API with its full-access token. */
export function probeOn(sandbox: TestSandbox) {
	return async (run: Omit<ProbeRun, 'baseUrl' | 'apiToken'>) => await runProbe({ ...run, baseUrl: sandbox.baseUrl, apiToken: sandbox.token });
}
