import { randomUUID } from 'node:crypto';

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
	/** Durable cursors: two polls back to back, the second reading the memory saved before the first (it starts before n8n has saved the first one's execution). */
	pollTwiceBeforeSaving(): Promise<[PollResult, PollResult]>;
	/** n8n restarted: a new workflow (and node instance) from the saved static data, activated again (classic). */
	restart(): void;
	/** What n8n 2.41's getPollBudgetMs() answers from the next poll on (undefined: n8n-core's default, 5 min; durable scheduler: its poll timeout less a margin). */
	setPollBudgetMs(ms: number | undefined): void;
}

const snapshot = (data: IDataObject): IDataObject => {
	const copy = JSON.parse(JSON.stringify(data)) as IDataObject;
	delete copy.__dataChanged;
	return copy;
};

/**
 * How n8n saves a polling trigger's memory (its static data):
 * - `classic` (n8n 2.41 and 1.123 by default): after the activation's poll and after a poll that starts an execution
 *   (items, even none), never after one that returns null; a restart runs an activation poll again;
 * - `durable` (2.41's durable scheduler with N8N_POLLER_DURABLE_CURSORS_ENABLED): after every scheduled poll that
 *   succeeds (with its execution, or alone when it returns null), but not after the activation's poll unless it starts
 *   an execution (its cursor is only staged); a restart runs no activation poll (the scheduled job outlives it).
 */
export type Scheduler = 'classic' | 'durable';

/** A polling trigger as an active workflow runs it: n8n-core's PollContext and TriggersAndPollers on one Workflow, its static data saved as the scheduler saves it. */
export function createPoller(options: NodeUnderTest & { scheduler?: Scheduler }): Poller {
	const scheduler = options.scheduler ?? 'classic';
	// Its own workflow id: the node keeps what it handed to n8n per workflow and node in its module (handedOver.ts).
	let workflowId = randomUUID();
	let saved = snapshot(options.staticData ?? {});
	let activation: WorkflowActivateMode = 'activate';
	let harness = buildWorkflow({ ...options, workflowId, staticData: saved });
	const pollers = new TriggersAndPollers();
	let pollBudgetMs: number | undefined;

	const run = async (mode: 'trigger' | 'manual'): Promise<PollResult> => {
		await ensureExpressionEngine();
		// Durable cursors: each scheduled poll reads the committed cursor afresh, never what an earlier poll left in memory.
		if (scheduler === 'durable' && mode === 'trigger') harness = buildWorkflow({ ...options, workflowId, staticData: saved });
		const { workflow, node } = harness;
		const budget = pollBudgetMs;
		const getPollBudgetMs = budget === undefined ? undefined : () => budget;
		// n8n-core's defaults (undefined) for __emit, __emitError, __commitCursor, __runPoll and the static data.
		const context = new PollContext(workflow, node, additionalData(harness), mode, activation, undefined, undefined, undefined, undefined, undefined, getPollBudgetMs);
		const firstOfActivation = mode === 'trigger' && activation !== 'update';
		try {
			const output = await workflow.expression.withIsolate(async () => await pollers.runPollFunction(workflow, node, context));
			if (mode === 'trigger') activation = 'update';
			const saves = scheduler === 'classic' ? output !== null || firstOfActivation : output !== null || !firstOfActivation;
			if (mode === 'trigger' && saves) saved = snapshot(workflow.staticData);
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
		async pollTwiceBeforeSaving() {
			const before = saved;
			const first = await run('trigger');
			const afterFirst = saved;
			saved = before;
			const second = await run('trigger');
			if (saved === before) saved = afterFirst;
			return [first, second];
		},
		restart() {
			// A new process keeps nothing of the old one's module state: modelled by an id the old one never saw.
			workflowId = randomUUID();
			harness = buildWorkflow({ ...options, workflowId, staticData: saved });
			activation = scheduler === 'classic' ? 'init' : 'update';
		},
		setPollBudgetMs(ms) {
			pollBudgetMs = ms;
		},
	};
}
