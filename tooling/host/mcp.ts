import type { N8nClient } from './restClient';
import type { Credential, WorkflowDefinition } from './types';

/** n8n's MCP Server Trigger: it serves the tool nodes connected to it to MCP clients. */
export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';

/** The credential the examples' MCP Server Trigger names (Authentication: Bearer Auth). */
export const MCP_CREDENTIAL = { type: 'httpBearerAuth', name: 'MCP Bearer Token' } as const;

/** The production URL of the workflow's MCP Server Trigger once published: n8n's `/mcp` and the trigger's Path (version 2 serves Streamable HTTP and SSE there). */
export function mcpUrl(n8nBaseUrl: string, workflow: WorkflowDefinition): string {
	const trigger = workflow.nodes.find((node) => node.type === MCP_TRIGGER_TYPE);
	if (!trigger) throw new Error(`the workflow "${workflow.name}" has no MCP Server Trigger`);
	return `${n8nBaseUrl}/mcp/${String(trigger.parameters.path)}`;
}

/** The "MCP Bearer Token" credential with this token; on a kept instance the existing one gets the token. */
export const mcpCredential = (client: N8nClient, token: string): Promise<Credential> => client.saveCredential(MCP_CREDENTIAL.name, MCP_CREDENTIAL.type, { token });

/** Points every MCP Server Trigger of the workflow at this bearer credential (the examples name theirs only). */
export function useMcpCredential(workflow: WorkflowDefinition, credential: Credential): WorkflowDefinition {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) =>
			node.type === MCP_TRIGGER_TYPE ? { ...node, credentials: { [MCP_CREDENTIAL.type]: { id: credential.id, name: credential.name } } } : node,
		),
	};
}

/**
 * What to paste into an MCP client for `url`: Claude Desktop's `mcpServers` entry through `mcp-remote` (a bridge for
 * clients that start servers as commands), and the Streamable HTTP entry (Cursor, VS Code, Claude Code).
 */
export function clientConfigs(name: string, url: string, token: string): { bridged: object; streamableHttp: object } {
	return {
		bridged: { mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', `Authorization: Bearer ${token}`] } } },
		streamableHttp: { mcpServers: { [name]: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } },
	};
}
