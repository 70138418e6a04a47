import { randomUUID } from 'node:crypto';

import type { CredentialRef, WorkflowDefinition, WorkflowNode } from './types';

export const ERP_NODE_TYPE = 'n8n-nodes-erp.erp';
export const ERP_TRIGGER_TYPE = 'n8n-nodes-erp.erpTrigger';
export const ERP_POLLING_TRIGGER_TYPE = 'n8n-nodes-erp.erpPollingTrigger';
export const ERP_TRIGGER_NAME = 'ERP Trigger';
export const ERP_POLLING_TRIGGER_NAME = 'ERP Polling Trigger';

/** A workflow node with a fresh id; `extra`: settings beside its parameters (credentials, webhookId…). */
export const node = (name: string, type: string, typeVersion: number, parameters: Record<string, unknown>, extra: Partial<WorkflowNode> = {}): WorkflowNode => ({
	id: randomUUID(),
	name,
	type,
	typeVersion,
	position: [0, 0],
	parameters,
	...extra,
});

const erpCredential = (credential: CredentialRef) => ({ credentials: { erpApi: { id: credential.id, name: credential.name } } });

/** The version of the ERP node a user adds now; workflows saved with 0.1.0 hold version 1. */
export const ERP_NODE_VERSION = 1.1;

export const erpNode = (parameters: Record<string, unknown>, credential: CredentialRef, name = 'ERP', typeVersion = ERP_NODE_VERSION) =>
	node(name, ERP_NODE_TYPE, typeVersion, parameters, { position: [240, 0], ...erpCredential(credential) });

/** An ERP Polling Trigger with these Poll Times and parameters, reading the ERP through `credential`. */
export const erpPollingTriggerNode = (pollTimes: Record<string, unknown>, parameters: Record<string, unknown>, credential: CredentialRef) =>
	node(ERP_POLLING_TRIGGER_NAME, ERP_POLLING_TRIGGER_TYPE, 1, { pollTimes, ...parameters }, erpCredential(credential));

/** A new ERP Trigger node (fresh ids) with these parameters and, to verify or confirm deliveries, the ERP API credential. */
export const erpTriggerNode = (parameters: Record<string, unknown>, credential?: CredentialRef) =>
	node(ERP_TRIGGER_NAME, ERP_TRIGGER_TYPE, 1, parameters, { webhookId: randomUUID(), ...(credential ? erpCredential(credential) : {}) });

/** A production webhook (POST /webhook/<path>) answering with every item of the last node, or (`onReceived`) at once while the workflow runs on. */
export const webhookNode = (path: string, responseMode: 'lastNode' | 'onReceived' = 'lastNode') =>
	node('Webhook', 'n8n-nodes-base.webhook', 2.1, { httpMethod: 'POST', path, responseMode, responseData: 'allEntries', options: {} }, { webhookId: randomUUID() });

/** n8n's Split Out node: one item per element of the list at `field`. */
export const splitOutNode = (field: string, parameters: Record<string, unknown> = {}) =>
	node('Split Out', 'n8n-nodes-base.splitOut', 1, { fieldToSplitOut: field, ...parameters, options: {} }, { position: [120, 0] });

/** Nodes connected one after the other, first to last. */
export function chain(name: string, nodes: WorkflowNode[]): WorkflowDefinition {
	const connections: WorkflowDefinition['connections'] = {};
	nodes.slice(1).forEach((next, i) => {
		connections[nodes[i].name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections };
}

/** A resource locator set "By ID", as the editor stores it. */
export const byId = (value: unknown) => ({ __rl: true, mode: 'id', value: String(value) });
