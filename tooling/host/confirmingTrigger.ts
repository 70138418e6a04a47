import { erpTriggerType, triggerUrl } from './examples';
import { outputItems } from './executions';
import type { N8nClient } from './restClient';
import type { SandboxAdmin } from '../../sandbox/adminClient';
import type { EventName } from '../../sandbox/events';
import type { CredentialRef, Execution, SavedWorkflow, WorkflowDefinition } from './types';
import { ERP_TRIGGER_NAME, erpTriggerNode, node } from './workflows';

/** The step after the trigger's Confirmed output: what acts on an event (ships the goods, orders more). */
export const ACTING_STEP = 'Act On Event';
/** The step after the trigger's Unconfirmed output: where a user looks into what was not confirmed. */
export const REVIEW_STEP = 'Review Event';

/** What a version-2 ERP Trigger puts on each item about its confirmation. */
export interface ConfirmedItem {
	event: string;
	timestamp?: string;
	deliveryKey: string;
	eventKey: string;
	confirmation: { status: 'confirmed' | 'contradicted' | 'couldNotConfirm' | 'unconfirmable'; reason?: string };
	record?: Record<string, unknown>;
	data: Record<string, unknown>;
}

export interface ConfirmingTrigger {
	workflow: SavedWorkflow;
	/** The production URL the ERP posts events to. */
	url: string;
	/** The sandbox's subscription of that URL (absent when not subscribed). */
	subscriptionId?: number;
}

export interface ConfirmingOptions {
	/** The trigger's Options collection (confirmationWait, …). */
	options?: Record<string, unknown>;
	/** Whether the sandbox delivers these events to the trigger (default). */
	subscribed?: boolean;
	/** The node version; 1 is the trigger as saved before confirmation existed (no confirm, one output). */
	typeVersion?: 1 | 2;
}

/**
 * An ERP Trigger for `events` (version 2: Confirm With the ERP on by default; reads the ERP through `credential`) →
 * an acting step on Confirmed, a review step on Unconfirmed; version 1 has one output, to the acting step.
 */
export function confirmingWorkflow(name: string, events: string[], credential: CredentialRef | undefined, settings: ConfirmingOptions = {}): WorkflowDefinition {
	const typeVersion = settings.typeVersion ?? 2;
	const trigger = { ...erpTriggerNode({ events, ...(settings.options && { options: settings.options }) }, credential), typeVersion };
	const acting = node(ACTING_STEP, 'n8n-nodes-base.noOp', 1, {}, { position: [240, -100] });
	const review = node(REVIEW_STEP, 'n8n-nodes-base.noOp', 1, {}, { position: [240, 100] });
	const to = (step: string) => [{ node: step, type: 'main' as const, index: 0 }];
	const main = typeVersion === 1 ? [to(ACTING_STEP)] : [to(ACTING_STEP), to(REVIEW_STEP)];
	return { name, nodes: typeVersion === 1 ? [trigger, acting] : [trigger, acting, review], connections: { [trigger.name]: { main } } };
}

/** Saves and activates a confirming workflow and subscribes its URL to `events` in the sandbox (unless told not to). */
export async function activeConfirmingTrigger(
	n8n: N8nClient,
	sandbox: SandboxAdmin,
	name: string,
	events: EventName[],
	credential: CredentialRef | undefined,
	settings: ConfirmingOptions = {},
): Promise<ConfirmingTrigger> {
	const definition = confirmingWorkflow(name, events, credential, settings);
	const workflow = await n8n.createActiveWorkflow(definition);
	const url = triggerUrl(n8n.baseUrl, definition.nodes[0], await erpTriggerType(n8n));
	if (settings.subscribed === false) return { workflow, url };
	const { id } = await sandbox.addWebhook({ url, events });
	return { workflow, url, subscriptionId: id };
}

/** The trigger's items on one output (0: Confirmed, 1: Unconfirmed) in an execution. */
export const triggerBranch = (execution: Execution, output: 0 | 1) =>
	outputItems(execution, ERP_TRIGGER_NAME, output).map((item) => item.json as unknown as ConfirmedItem);

