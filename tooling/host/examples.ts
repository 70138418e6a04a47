import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { EventName } from '../../sandbox/events';
import { REPO_ROOT } from './paths';
import type { N8nClient } from './restClient';
import type { SandboxAdmin } from '../../sandbox/adminClient';
import { ERP_POLLING_TRIGGER_TYPE, ERP_TRIGGER_TYPE } from './workflows';
import type { INodeTypeDescription } from 'n8n-workflow';
import type { Credential, SavedWorkflow, WorkflowDefinition, WorkflowNode } from './types';

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

export interface Example {
	file: string;
	workflow: WorkflowDefinition;
}

/** examples/*.json, in file-name order. */
export function readExamples(): Example[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as WorkflowDefinition }));
}

/** The examples name their credential only ("ERP API") to import into any n8n; this points every ERP node at a concrete credential of this instance. */
export function useCredential(workflow: WorkflowDefinition, credential: Credential): WorkflowDefinition {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.credentials?.erpApi ? { ...node, credentials: { ...node.credentials, erpApi: { id: credential.id, name: credential.name } } } : node,
		),
	};
}

/** examples/`file` as a user imports it, on `credential`; with `pollTimes`, its ERP Polling Triggers poll then instead (a test cannot wait minutes). */
export function exampleWorkflow(file: string, credential: Credential, pollTimes?: object): WorkflowDefinition {
	const found = readExamples().find((example) => example.file === file);
	if (!found) throw new Error(`examples/${file} is missing`);
	const workflow = useCredential(found.workflow, credential);
	if (!pollTimes) return workflow;
	return { ...workflow, nodes: workflow.nodes.map((node) => (node.type === ERP_POLLING_TRIGGER_TYPE ? { ...node, parameters: { ...node.parameters, pollTimes } } : node)) };
}

export const erpTriggers = (workflow: WorkflowDefinition): WorkflowNode[] => workflow.nodes.filter((node) => node.type === ERP_TRIGGER_TYPE);

/** The ERP Trigger's node type as this n8n loaded it (it declares the webhook path). */
export async function erpTriggerType(client: N8nClient): Promise<INodeTypeDescription> {
	const type = (await client.nodeTypes()).find((t) => t.name === ERP_TRIGGER_TYPE);
	if (!type) throw new Error(`n8n has not loaded ${ERP_TRIGGER_TYPE}: see n8n's log for package loading errors`);
	return type;
}

/** A trigger's production URL, where the ERP (here the sandbox) POSTs its events: `/webhook/<the node's webhookId>/<the path its node type declares>`. */
export function triggerUrl(n8nBaseUrl: string, node: WorkflowNode, type: INodeTypeDescription): string {
	const path = type.webhooks?.find((webhook) => webhook.name === 'default')?.path;
	if (!node.webhookId || path === undefined) throw new Error(`the ERP Trigger "${node.name}" has no webhookId or its type no webhook`);
	return `${n8nBaseUrl}/webhook/${node.webhookId}/${path}`;
}

/**
 * Activates a saved workflow with ERP (Polling) Triggers and subscribes each ERP Trigger's URL to the sandbox's
 * events, as a user pastes it into the ERP; returns what starts it: the events ("all": every one), "polling".
 */
export async function goLive(client: N8nClient, sandbox: SandboxAdmin, workflow: SavedWorkflow): Promise<string[]> {
	const triggers = erpTriggers(workflow);
	const polls = workflow.nodes.some((node) => node.type === ERP_POLLING_TRIGGER_TYPE);
	if (triggers.length === 0 && !polls) return [];
	if (!workflow.active) await client.activateWorkflow(workflow);
	if (triggers.length === 0) return ['polling'];
	const type = await erpTriggerType(client);
	const events = new Set<string>();
	for (const trigger of triggers) {
		const listened = (trigger.parameters.events ?? []) as string[];
		// None listed, or "All Events" (`*`): every event.
		const subscribed = listened.length > 0 && !listened.includes('*') ? (listened as EventName[]) : undefined;
		await sandbox.addWebhook({ url: triggerUrl(client.baseUrl, trigger, type), events: subscribed });
		for (const event of subscribed ?? ['all']) events.add(event);
	}
	return [...events];
}
