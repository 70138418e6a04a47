import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The MCP SDK's own client, connected over Streamable HTTP to `url` with this bearer token. */
export async function connectMcpClient(url: string, token: string): Promise<Client> {
	const client = new Client({ name: 'n8n-nodes-erp e2e', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
	await client.connect(transport);
	return client;
}
