import { randomUUID } from 'node:crypto';

import type { WorkflowDefinition, WorkflowNode } from '../../tooling/host/types';
import { connect, type Session } from '../../tooling/host/session';
import { TOOL_TEXT_MAX_LENGTH, namedIn, parameterNames, recordFieldNames } from '../../tooling/host/toolTexts';
import { ERP_NODE_TYPE, webhookNode } from '../../tooling/host/workflows';

describe('ERP node as an AI tool, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	test('n8n offers an "ERP Tool" variant that plugs into an agent\'s tool input', async () => {
		const tool = (await session.n8n.nodeTypes()).find((type) => type.name === `${ERP_NODE_TYPE}Tool`);

		expect(tool).toMatchObject({ displayName: 'ERP Tool', outputs: ['ai_tool'], credentials: [{ name: 'erpApi', required: true }] });
		expect(tool?.properties.map((p) => p.name)).toEqual(expect.arrayContaining(['toolDescription', 'resource', 'operation']));
	});

	test('each operation\'s prefilled Tool Description, as n8n serves it, is short and names no record field or filter', async () => {
		const tool = (await session.n8n.nodeTypes()).find((type) => type.name === `${ERP_NODE_TYPE}Tool`);
		const descriptions = (tool?.properties ?? []).filter((p) => p.name === 'toolDescription');
		const names = [...(await recordFieldNames(session.sandbox)), ...parameterNames()];
		const keys: Record<string, string> = { 'contact upsert': 'email', 'product upsert': 'sku', 'employee createIfNew': 'email' };

		expect(descriptions).toHaveLength(23);
		for (const description of descriptions) {
			const show = (description.displayOptions?.show ?? {}) as Record<string, unknown[]>;
			const operation = `${String(show.resource?.[0])} ${String(show.operation?.[0])}`;
			const text = String(description.default);
			expect({ operation, length: text.length <= TOOL_TEXT_MAX_LENGTH, named: namedIn(text, names, keys[operation]) }).toEqual({ operation, length: true, named: [] });
		}
	});

	test('the tool runs with parameters an agent fills in with $fromAI() and reads the ERP', async () => {
		// n8n's Tool Executor calls a tool the way an AI Agent does, with the arguments a model would choose.
		const path = `erp-tool-${Date.now()}`;
		const executor: WorkflowNode = {
			id: randomUUID(),
			name: 'Tool Executor',
			type: '@n8n/n8n-nodes-langchain.toolExecutor',
			typeVersion: 1,
			position: [240, 0],
			parameters: { query: '={{ JSON.stringify($json.body) }}', toolName: '', node: '' },
		};
		const tool: WorkflowNode = {
			id: randomUUID(),
			name: 'Get contact',
			type: `${ERP_NODE_TYPE}Tool`,
			typeVersion: 1,
			position: [240, 200],
			parameters: {
				descriptionType: 'auto',
				resource: 'contact',
				operation: 'get',
				contactId: { __rl: true, mode: 'id', value: "={{ $fromAI('contact_id', 'The ID of the contact', 'number') }}" },
				// The whole record, as the ERP holds it; a tool's default output is the simplified one.
				output: 'raw',
			},
			credentials: { erpApi: session.ctx.credentials.good },
		};
		const workflow: WorkflowDefinition = {
			name: `e2e ${path}`,
			nodes: [webhookNode(path), executor, tool],
			connections: {
				Webhook: { main: [[{ node: executor.name, type: 'main', index: 0 }]] },
				[tool.name]: { ai_tool: [[{ node: executor.name, type: 'ai_tool', index: 0 }]] },
			},
		};
		await session.n8n.createActiveWorkflow(workflow);
		const contact = (await session.sandbox.records('contacts'))[3];
		const since = await session.sandbox.lastRequestSeq();

		const response = await session.n8n.callWebhook(path, session.n8n.line.toolExecutorQuery(tool.name, { contact_id: contact.id }));

		const requests = await session.sandbox.requests(since);
		expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([`GET /contacts/${contact.id} 200`]);
		// A tool answers the model with text: the node's output items as JSON.
		expect(response.status).toBe(200);
		expect(JSON.parse((response.body as string[])[0])).toEqual([contact]);
	});
});
