import { randomUUID } from 'node:crypto';

import type { Credential, Execution, WorkflowNode } from '../../../tooling/host/types';
import { finishedExecution } from '../../../tooling/host/executions';
import { chain, erpNode } from '../../../tooling/host/workflows';
import type { ReliabilitySession } from '../setup/context';

/**
 * What the editor's "Execute workflow" does with Manual Trigger → ERP: the path left when n8n refuses to
 * publish a workflow whose parameters it finds invalid itself. Returns the execution and the API requests.
 */
export async function runManually(
	session: ReliabilitySession,
	parameters: Record<string, unknown>,
	credential: Credential,
): Promise<{ execution: Execution; requests: string[] }> {
	const start: WorkflowNode = { id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const workflow = await session.n8n.createWorkflow(chain('reliability manual run', [start, erpNode(parameters, credential)]));
	const since = await session.sandbox.lastRequestSeq();
	const execution = await finishedExecution(session.n8n, await session.n8n.runManually(workflow.id, start.name));
	const requests = (await session.sandbox.requests(since)).map((r) => `${r.method} ${r.path} ${r.status}`);
	return { execution, requests };
}
