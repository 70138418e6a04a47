import type { IDataObject } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import type { SeedOptions } from '../../../sandbox/seed';
import { runNode } from '../../support/n8n/run-node';
import type { RunNodeResult } from '../../support/n8n/run-node';
import type { TestSandbox } from '../../support/sandbox';
import { startTestSandbox } from '../../support/sandbox';
import type { ProbeCall } from './fixtures/ErpTransportProbe.node';
import { ErpTransportProbe } from './fixtures/ErpTransportProbe.node';

export interface ProbeRun {
	baseUrl: string;
	apiToken?: string;
	calls: ProbeCall[];
	options?: IDataObject;
	cancelWhen?: Promise<unknown>;
}

/** Runs the probe node in n8n's WorkflowExecute: one input item per call. */
export async function runProbe(run: ProbeRun): Promise<RunNodeResult> {
	return await runNode({
		nodeType: new ErpTransportProbe(),
		credentialType: new ErpApi(),
		credentials: { baseUrl: run.baseUrl, apiToken: run.apiToken ?? 'scripted-token' },
		parameters: { call: '={{ JSON.stringify($json.call) }}', transportOptions: JSON.stringify(run.options ?? {}) },
		input: run.calls.map((call) => ({ call: call as unknown as IDataObject })),
		cancelWhen: run.cancelWhen,
	});
}

/** One sandbox for the test file, emptied (and seeded when asked) before each test. */
export function useSandbox(seedEachTest?: SeedOptions): { sandbox: TestSandbox; probe: (run: Omit<ProbeRun, 'baseUrl' | 'apiToken'>) => Promise<RunNodeResult> } {
	const held = {} as { sandbox: TestSandbox };
	beforeAll(async () => {
		held.sandbox = await startTestSandbox();
	});
	afterAll(async () => await held.sandbox.close());
	beforeEach(async () => {
		await held.sandbox.admin.reset();
		if (seedEachTest) await held.sandbox.admin.seed(seedEachTest);
	});
	return {
		get sandbox() {
			return held.sandbox;
		},
		probe: async (run) => await runProbe({ ...run, baseUrl: held.sandbox.baseUrl, apiToken: held.sandbox.token }),
	};
}
