import type { N8nClient } from '../tooling/host/restClient';
import { timed } from './stats';
import type { BenchWorkflow } from './workflows';

export interface WorkflowRun {
	seconds: number;
	/** n8n's answer: 200 when the workflow succeeded. */
	status: number;
	/** Records the workflow's last node counted; undefined when it failed. */
	count?: number;
	/** n8n's answer as it came, for the message when something is off. */
	answer: unknown;
}

export interface DeployedWorkflow extends BenchWorkflow {
	id: string;
}

export async function deploy(n8n: N8nClient, workflow: BenchWorkflow): Promise<DeployedWorkflow> {
	const saved = await n8n.createActiveWorkflow(workflow.definition);
	return { ...workflow, id: saved.id };
}

/** Wall time from the webhook call until n8n answers with the count. */
export async function runWorkflow(n8n: N8nClient, workflow: DeployedWorkflow, body: object = {}): Promise<WorkflowRun> {
	const { result, seconds } = await timed(() => n8n.callWebhook(workflow.path, body));
	const counted = (result.body as Record<string, unknown> | null)?.[`count_${workflow.countField}`];
	return { seconds, status: result.status, count: result.status === 200 && typeof counted === 'number' ? counted : undefined, answer: result.body };
}

export function expectCount(contender: string, run: { count?: number; answer?: unknown }, expected: number): void {
	if (run.count === expected) return;
	const answer = run.answer === undefined ? '' : ` (answer: ${JSON.stringify(run.answer).slice(0, 300)})`;
	throw new Error(`${contender} produced ${run.count ?? 'no'} records instead of ${expected}${answer}: its figure would mean nothing`);
}
