import { randomUUID } from 'node:crypto';

import { erpTriggerNode } from '../../e2e/host/examples';
import type { Credential, WorkflowDefinition, WorkflowNode } from '../../e2e/host/types';
import { byId, chain, erpNode, splitOutNode, webhookNode } from '../../e2e/support/workflows';
import { PROCESS_NAME_ENV } from '../host/n8nQueueProcess';

/** Node settings beside `parameters` that WorkflowNode does not name. */
type QueueNode = WorkflowNode & { executeOnce?: boolean };

export const WORKER_NODE = 'Worker';
export const IMPORT_NODE = 'Import Contacts';

/**
 * A Set node that adds `worker`: the name of the n8n process that ran it, read from that process's environment.
 * This is how an execution records which worker ran it. `once`: one item for the whole execution.
 */
export function workerNode(once: boolean): QueueNode {
	return {
		id: randomUUID(),
		name: WORKER_NODE,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [0, 0],
		parameters: {
			mode: 'manual',
			assignments: { assignments: [{ id: randomUUID(), name: 'worker', value: `={{ $env.${PROCESS_NAME_ENV} }}`, type: 'string' }] },
			includeOtherFields: !once,
			options: {},
		},
		...(once ? { executeOnce: true } : {}),
	};
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
	/** The ERP node's Concurrency option. */
	concurrency: number;
	maxRetries: number;
}

/**
 * The node that writes one contact per input row. Today: Contact › Create with Map Automatically (the rows carry
 * the ERP's field names), On Error: Continue, so that a failed item is counted instead of failing the rest.
 * Switch to Contact › Create or Update here once it exists (issue 15): a re-run then updates instead of
 * creating twice.
 */
export function importContactsNode(credential: Credential, settings: ImportSettings): WorkflowNode {
	const node = erpNode(
		{ resource: 'contact', operation: 'create', mappingMode: 'autoMapInputData', options: { ...settings } },
		credential,
		IMPORT_NODE,
	);
	return { ...node, onError: 'continueRegularOutput' };
}

/** Webhook (answers at once; the run goes to the queue) → Split Out `body.rows` → import → Worker (once). */
export function importWorkflow(path: string, credential: Credential, settings: ImportSettings): WorkflowDefinition {
	const webhook = webhookNode(path);
	webhook.parameters = { ...webhook.parameters, responseMode: 'onReceived' };
	return chain(`queue import ${path}`, [webhook, splitOutNode('body.rows'), importContactsNode(credential, settings), workerNode(true)]);
}
