import { ensureExpressionEngine } from './environment';

import { PollContext, TriggersAndPollers } from 'n8n-core';
import type { IDataObject, INodeExecutionData, WorkflowActivateMode } from 'n8n-workflow';

import { additionalData, buildWorkflow, type NodeUnderTest } from './workflow';

export interface PollResult {
	/** What poll() returned on its first output: null when it reported nothing, [] for an execution with no items. */
	items: INodeExecutionData[] | null;
	/** What poll() threw (the poll is then an error in n8n, and nothing is saved). */
	error?: Error;
}

export interface Poller {
	/** One poll as n8n's scheduler runs it (mode `trigger`); the first one is the activation's. */
	poll(): Promise<PollResult>;
	/** The editor's Fetch Test Event (mode `manual`). */
	testStep(): Promise<PollResult>;
	/** The static data n8n has saved to its database so far (JSON, as it would read it back). */
	saved(): IDataObject;
	/** The static data the running n8n holds in memory now. */
	inMemory(): IDataObject;
	/** n8n restarted: a new workflow (and node instance) from the saved static data, activated again. */
	restart(): void;
}

const snapshot = (data: IDataObject): IDataObject => {
	const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
	delete copy.__dataChanged;
	return copy;
};

/**
 * A polling trigger as an active workflow runs it: n8n-core's PollContext and TriggersAndPollers on one Workflow whose
 * static data lives on between polls. Saving follows n8n 2.41 and 1.123 without durable poll cursors: after the
 * activation's poll and after a poll that starts an execution (items, even none), never after one that returns null.
 */
export function createPoller(options: NodeUnderTest): Poller {
	let saved = snapshot(options.staticData ?? {});
	let activation: WorkflowActivateMode = 'activate';
	let harness = buildWorkflow({ ...options, staticData: saved });
	const pollers = new TriggersAndPollers();

	const run = async (mode: 'trigger' | 'manual'): Promise<PollResult> => {
		await ensureExpressionEngine();
		const { workflow, node } = harness;
		const context = new PollContext(workflow, node, additionalData(harness), mode, activation);
		const firstOfActivation = mode === 'trigger' && activation !== 'update';
		try {
			const output = await workflow.expression.withIsolate(
				async () => await pollers.runPollFunction(workflow, node, context),
			);
			if (mode === 'trigger') activation = 'update';
			if (mode === 'trigger' && (output !== null || firstOfActivation)) saved = snapshot(workflow.staticData);
			return { items: output === null ? null : (output[0] ?? []) };
		} catch (error) {
			return { items: null, error: error as Error };
		}
	};

	return {
		poll: async () => await run('trigger'),
		testStep: async () => await run('manual'),
		saved: () => structuredClone(saved),
		inMemory: () => snapshot(harness.workflow.staticData),
		restart() {
			harness = buildWorkflow({ ...options, staticData: saved });
			activation = 'init';
		},
	};
}
