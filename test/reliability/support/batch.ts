import { atLeast, outputItems, waitForExecutions, type OutputItem } from '../../../tooling/host/executions';
import type { Execution } from '../../../tooling/host/types';
import { chain, erpNode, splitOutNode, webhookNode } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';

export interface BatchRun {
	execution: Execution;
	/** The ERP node's output items, with their pairing. */
	items: OutputItem[];
	/** The sandbox's last request log entry before the run: what it received since is the run's. */
	since: number;
	workflowId: string;
}

// A big run finishes in minutes; this only stops a hung one from blocking the suite forever.
const RUN_LIMIT_MS = 12 * 60_000;

/**
 * Runs the ERP node with On Error: Continue over `inputs` (one item each) in a real, active workflow (Webhook
 * answering at once → Split Out → ERP), returning the execution as n8n saved it; `afterStart` runs meanwhile.
 */
export async function runBatch(
	session: ReliabilitySession,
	name: string,
	erpParameters: Record<string, unknown>,
	inputs: object[],
	afterStart?: (since: number) => Promise<void>,
): Promise<BatchRun> {
	const path = `reliability-${name}-${Date.now()}`;
	const erp = erpNode(erpParameters, session.ctx.credentials.good);
	erp.onError = 'continueRegularOutput';
	const workflow = await session.n8n.createActiveWorkflow(chain(`reliability ${name}`, [webhookNode(path, 'onReceived'), splitOutNode('body.items', { include: 'noOtherFields' }), erp]));

	const since = await session.sandbox.lastRequestSeq();
	const started = await session.n8n.callWebhook(path, { items: inputs });
	if (started.status !== 200) throw new Error(`n8n answered ${started.status} to the webhook: ${JSON.stringify(started.body)}`);
	await afterStart?.(since);
	const [execution] = await waitForExecutions(session.n8n, workflow.id, atLeast(1), RUN_LIMIT_MS);
	return { execution, items: outputItems(execution, erp.name), since, workflowId: workflow.id };
}
