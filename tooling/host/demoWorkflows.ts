import { goLive, readExamples, useCredential } from './examples';
import { mcpCredential, mcpUrl, MCP_TRIGGER_TYPE, useMcpCredential } from './mcp';
import { SandboxAdmin } from '../../sandbox/adminClient';
import type { SandboxOptions } from '../../sandbox/server';
import type { Stack } from './stack';

/** The demo's sandbox ERP (`npm start`): its records, and the orders extension (endpoints the API document does not list) the Custom API Call example reads. */
export const DEMO_SANDBOX = {
	seed: { contacts: 40, invoices: 60, products: 25, employees: 15, orders: 30 },
	extensions: ['orders'],
} satisfies Pick<SandboxOptions, 'seed' | 'extensions'>;

/** The bearer token MCP clients send to the demo's MCP Server Trigger (`npm start` prints it; DEMO_MCP_TOKEN overrides it). */
export const DEMO_MCP_TOKEN = 'erp-demo-mcp-2026';

/**
 * Examples the demo imports but does not publish, and why: the two low-stock alerts act on the same stock drops (one
 * drop, two purchase requests); the polling one is published (it misses nothing while n8n is down, needs no URL).
 */
export const HELD_IN_DEMO: Record<string, string> = {
	'low-stock-alert.json': 'the same stock drops as the polling alert: unpublish that one before publishing this',
};

export interface ImportedExample {
	name: string;
	workflowId: string;
	/** The events its ERP Trigger listens to, "polling", or "mcp" for an MCP Server Trigger; none: the workflow is not published. */
	events: string[];
	/** Why a workflow with a trigger of its own was left unpublished (HELD_IN_DEMO). */
	held?: string;
	/** Where MCP clients reach its MCP Server Trigger. */
	mcpUrl?: string;
}

/**
 * Imports examples/*.json with the stack's credential and an "MCP Bearer Token" one holding `mcpToken` (reusing a
 * kept user folder's), publishes those with a trigger of their own but the held ones, subscribes their ERP Triggers.
 */
export async function importExamples(stack: Stack, mcpToken = DEMO_MCP_TOKEN): Promise<ImportedExample[]> {
	const { client, credential } = stack;
	const sandbox = new SandboxAdmin(stack.sandbox.url);
	const bearer = await mcpCredential(client, mcpToken);
	const existing = new Map((await client.listWorkflows()).map((w) => [w.name, w.id]));
	const imported: ImportedExample[] = [];
	for (const example of readExamples()) {
		const definition = useMcpCredential(useCredential(example.workflow, credential), bearer);
		const existingId = existing.get(definition.name);
		const workflow = existingId ? await client.getWorkflow(existingId) : await client.createWorkflow(definition);
		const held = HELD_IN_DEMO[example.file];
		if (held) {
			// Not subscribed to the sandbox's events either, so it acts on nothing even when a kept user folder has it published.
			imported.push({ name: workflow.name, workflowId: workflow.id, events: [], held });
			continue;
		}
		if (workflow.nodes.some((node) => node.type === MCP_TRIGGER_TYPE)) {
			if (!workflow.active) await client.activateWorkflow(workflow);
			imported.push({ name: workflow.name, workflowId: workflow.id, events: ['mcp'], mcpUrl: mcpUrl(client.baseUrl, workflow) });
			continue;
		}
		imported.push({ name: workflow.name, workflowId: workflow.id, events: await goLive(client, sandbox, workflow) });
	}
	return imported;
}
