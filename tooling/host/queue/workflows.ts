import { randomUUID } from 'node:crypto';

import type { Credential, WorkflowDefinition, WorkflowNode } from '../types';
import { fieldsParameter } from '../fields';
import { byId, chain, erpNode, erpTriggerNode, node, splitOutNode, webhookNode } from '../workflows';
import { PROCESS_NAME_ENV } from './n8nQueueProcess';

export const WORKER_NODE = 'Worker';
export const IMPORT_NODE = 'Import Contacts';

/** A Set node adding `worker`, the name of the n8n process that ran it (from its environment): how an execution records its worker. `once`: one item per execution. */
export function workerNode(once: boolean): WorkflowNode {
	const assignment = { id: randomUUID(), name: 'worker', value: `={{ $env.${PROCESS_NAME_ENV} }}`, type: 'string' };
	const parameters = { mode: 'manual', assignments: { assignments: [assignment] }, includeOtherFields: !once, options: {} };
	return node(WORKER_NODE, 'n8n-nodes-base.set', 3.4, parameters, once ? { executeOnce: true } : {});
}

/** ERP Trigger (the given events, no verification) → Worker. */
export const triggerWorkflow = (name: string, events: string[]): WorkflowDefinition =>
	chain(name, [erpTriggerNode({ events }), workerNode(false)]);

/** ERP Trigger → Worker → ERP Contact › Get of the contact in the event (a request the ERP logs). */
export const lookUpWorkflow = (name: string, events: string[], credential: Credential): WorkflowDefinition =>
	chain(name, [
		erpTriggerNode({ events }),
		workerNode(false),
		erpNode({ resource: 'contact', operation: 'get', contactId: byId('={{ $json.data.id }}') }, credential, 'Get Contact'),
	]);

export interface ImportSettings {
	/** Contact › Create (one POST per row), or Create or Update (looks the e-mail up first: safe to run again). */
	operation: 'create' | 'upsert';
	/** The ERP node's Concurrency option. */
	concurrency: number;
	maxRetries: number;
}

/** Writes one contact per input row: Map Automatically (the rows carry the ERP's field names), On Error: Continue (a failed item is counted, the rest go on). */
export function importContactsNode(credential: Credential, { operation, ...options }: ImportSettings): WorkflowNode {
	const columns = fieldsParameter('contact', null, 'autoMapInputData');
	const node = erpNode({ resource: 'contact', operation, columns, options }, credential, IMPORT_NODE);
	return { ...node, onError: 'continueRegularOutput' };
}

/** Webhook (answers at once; the run goes to the queue) → Split Out `body.rows` → import → Worker (once). */
export function importWorkflow(path: string, credential: Credential, settings: ImportSettings): WorkflowDefinition {
	return chain(`queue import ${path}`, [webhookNode(path, 'onReceived'), splitOutNode('body.rows'), importContactsNode(credential, settings), workerNode(true)]);
}
