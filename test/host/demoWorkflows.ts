import { goLive, readExamples, useCredential } from './examples';
import { SandboxAdmin } from '../../sandbox/adminClient';
import type { Stack } from './stack';

/** The sandbox ERP's records in the demo (`npm start`): what the examples meet there. */
export const DEMO_SANDBOX_SEED = { contacts: 40, invoices: 60, products: 25, employees: 15 };

export interface ImportedExample {
	name: string;
	workflowId: string;
	/** The events its ERP Trigger listens to, or "polling" (none: the workflow is started by hand and stays inactive). */
	events: string[];
}

/**
 * Imports examples/*.json with the stack's credential (reusing same-named workflows of a kept user folder),
 * activates those with an ERP Trigger or an ERP Polling Trigger and subscribes the ERP Triggers to the sandbox's events.
 */
export async function importExamples(stack: Stack): Promise<ImportedExample[]> {
	const { client, credential } = stack;
	const sandbox = new SandboxAdmin(stack.sandbox.url);
	const existing = new Map((await client.listWorkflows()).map((w) => [w.name, w.id]));
	const imported: ImportedExample[] = [];
	for (const example of readExamples()) {
		const definition = useCredential(example.workflow, credential);
		const existingId = existing.get(definition.name);
		const workflow = existingId ? await client.getWorkflow(existingId) : await client.createWorkflow(definition);
		imported.push({ name: workflow.name, workflowId: workflow.id, events: await goLive(client, sandbox, workflow) });
	}
	return imported;
}
