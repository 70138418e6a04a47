import { randomUUID } from 'node:crypto';

import type { Connections, Credential, WorkflowDefinition, WorkflowNode } from './types';

export const ERP_NODE_TYPE = 'n8n-nodes-erp.erp';

export function erpNode(parameters: Record<string, unknown>, credential: Credential, name = 'ERP'): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: ERP_NODE_TYPE,
		typeVersion: 1,
		position: [240, 0],
		parameters,
		credentials: { erpApi: { id: credential.id, name: credential.name } },
	};
}

export const ERP_POLLING_TRIGGER_NAME = 'ERP Polling Trigger';

/** An ERP Polling Trigger with these Poll Times and parameters, reading the ERP through `credential`. */
export function erpPollingTriggerNode(pollTimes: Record<string, unknown>, parameters: Record<string, unknown>, credential: Credential): WorkflowNode {
	return {
		id: randomUUID(),
		name: ERP_POLLING_TRIGGER_NAME,
		type: 'n8n-nodes-erp.erpPollingTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: { pollTimes, ...parameters },
		credentials: { erpApi: { id: credential.id, name: credential.name } },
	};
}

/** A production webhook (POST /webhook/<path>) answering with every item of the last node. */
export function webhookNode(path: string): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2.1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
}

/** n8n's Split Out node: one item per element of the list at `field`. */
export function splitOutNode(field: string): WorkflowNode {
	return {
		id: randomUUID(),
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [120, 0],
		parameters: { fieldToSplitOut: field, options: {} },
	};
}

/** Nodes connected one after the other, first to last. */
export function chain(name: string, nodes: WorkflowNode[]): WorkflowDefinition {
	const connections: Connections = {};
	nodes.slice(1).forEach((node, i) => {
		connections[nodes[i].name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections };
}

/** A resource locator set "By ID", as the editor stores it. */
export const byId = (value: number | string) => ({ __rl: true, mode: 'id', value: String(value) });
