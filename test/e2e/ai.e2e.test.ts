import { randomUUID } from 'node:crypto';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import type { SavedWorkflow, WorkflowDefinition } from '../../tooling/host/types';
import { namedIn, parameterNames, recordFieldNames, TOOL_TEXT_MAX_LENGTH } from '../../tooling/host/toolTexts';
import { ERP_NODE_TYPE, node, webhookNode } from '../../tooling/host/workflows';
import type { Contact, Invoice } from '../../sandbox/types';
import { readExamples, useCredential } from '../../tooling/host/examples';
import { MCP_TRIGGER_TYPE, mcpCredential, mcpUrl, useMcpCredential } from '../../tooling/host/mcp';
import { connectMcpClient } from '../../tooling/host/mcpClient';
import { useSession } from './setup/session';

const session = useSession();

describe('ERP node as an AI tool, inside a real n8n', () => {
	test('n8n offers an "ERP Tool" variant that plugs into an agent\'s tool input; each operation\'s prefilled Tool Description, as n8n serves it, is short and names no record field or filter', async () => {
		const tool = (await session.n8n.nodeTypes()).find((type) => type.name === `${ERP_NODE_TYPE}Tool`);

		expect(tool).toMatchObject({ displayName: 'ERP Tool', outputs: ['ai_tool'], credentials: [{ name: 'erpApi', required: true }] });
		expect(tool?.properties.map((p) => p.name)).toEqual(expect.arrayContaining(['toolDescription', 'resource', 'operation']));
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
		const executor = node('Tool Executor', '@n8n/n8n-nodes-langchain.toolExecutor', 1, { query: '={{ JSON.stringify($json.body) }}', toolName: '', node: '' });
		const tool = node(
			'Get contact',
			`${ERP_NODE_TYPE}Tool`,
			1,
			{
				descriptionType: 'auto',
				resource: 'contact',
				operation: 'get',
				contactId: { __rl: true, mode: 'id', value: "={{ $fromAI('contact_id', 'The ID of the contact', 'number') }}" },
				// The whole record, as the ERP holds it; a tool's default output is the simplified one.
				output: 'raw',
			},
			{ credentials: { erpApi: session.ctx.credentials.good } },
		);
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

/** What a tools/call answers: text content, and isError when the tool failed. */
interface ToolResult {
	isError?: boolean;
	content: Array<{ type: string; text?: string }>;
}

const TOOLS = [
	'Create_or_update_contact',
	'Find_contacts',
	'Create_invoice',
	'Send_invoice',
	'Mark_invoice_paid',
	'Find_invoices',
	'Find_products',
	'Get_product_stock',
];

/**
 * examples/erp-assistant-mcp.json published in a real n8n, used by the MCP SDK's own client over Streamable HTTP with
 * the bearer token: the tools a model gets (names, descriptions, input schemas), each call's effect in the ERP and
 * the requests it cost, and the errors a model reads when it gets something wrong.
 */
describe('the ERP tools through n8n\'s MCP Server Trigger, used by a real MCP client', () => {
	let workflow: SavedWorkflow;
	let url: string;
	let mcp: Client;
	const token = `mcp-e2e-${randomUUID()}`;
	const example = readExamples().find((e) => e.file === 'erp-assistant-mcp.json');

	beforeAll(async () => {
		if (!example) throw new Error('examples/erp-assistant-mcp.json is missing');
		const credential = await mcpCredential(session.n8n, token);
		const definition: WorkflowDefinition = useMcpCredential(useCredential(example.workflow, session.ctx.credentials.good), credential);
		// Its own path, so that the example stays free for whoever imports it into this n8n.
		const path = `erp-assistant-e2e-${Date.now()}`;
		definition.nodes = definition.nodes.map((node) => (node.type === MCP_TRIGGER_TYPE ? { ...node, webhookId: randomUUID(), parameters: { ...node.parameters, path } } : node));
		workflow = await session.n8n.createActiveWorkflow({ ...definition, name: `e2e MCP ${path}` });
		url = mcpUrl(session.n8n.baseUrl, workflow);
		mcp = await connectMcpClient(url, token);
	});

	afterAll(async () => {
		await mcp?.close();
		if (workflow) await session.n8n.deactivateWorkflow(workflow.id);
	});

	/** Calls a tool as a model does; answers the result and the ERP requests the call cost. */
	const call = async (name: string, args: Record<string, unknown>) => {
		const since = await session.sandbox.lastRequestSeq();
		const result = (await mcp.callTool({ name, arguments: args })) as ToolResult;
		const requests = await session.sandbox.requests(since);
		return { result, text: result.content.map((c) => c.text ?? '').join('\n'), requests, seen: requests.map((r) => `${r.method} ${r.path} ${r.status}`) };
	};
	const json = (text: string): Array<Record<string, unknown>> => JSON.parse(text) as Array<Record<string, unknown>>;

	test('a client with another bearer token is refused (403), before any tool is listed', async () => {
		await expect(connectMcpClient(url, 'not-the-token')).rejects.toMatchObject({ code: 403, message: expect.stringMatching(/Authorization data is wrong/) });
	});

	test('tools/list: the assistant tools, each described for a model, with typed and required arguments', async () => {
		const { tools } = await mcp.listTools();

		expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
		const summary = Object.fromEntries(
			tools.map((tool) => {
				const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
				return [
					tool.name,
					{
						required: [...(tool.inputSchema.required ?? [])].sort(),
						types: Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, p.type ?? 'any'])),
					},
				];
			}),
		);
		expect(summary).toEqual({
			Create_or_update_contact: {
				required: ['email', 'first_name'],
				types: { email: 'string', first_name: 'string', last_name: 'string', company: 'string', phone: 'string' },
			},
			Find_contacts: { required: ['search'], types: { search: 'string' } },
			Create_invoice: { required: ['contact_id', 'lines'], types: { contact_id: 'number', currency: 'string', due_date: 'string', lines: 'any' } },
			Send_invoice: { required: ['invoice_id'], types: { invoice_id: 'number' } },
			Mark_invoice_paid: { required: ['invoice_id'], types: { invoice_id: 'number', payment_method: 'string', reference: 'string' } },
			Find_invoices: { required: ['status'], types: { status: 'string' } },
			Find_products: { required: ['search'], types: { search: 'string' } },
			Get_product_stock: { required: ['product_id'], types: { product_id: 'number' } },
		});
		// Each tool is named after its node and says what the example's node says: what it does, returns and costs.
		const described = example?.workflow.nodes
			.filter((node) => node.type !== MCP_TRIGGER_TYPE)
			.map((node) => [node.name.replace(/[^a-zA-Z0-9_-]+/g, '_'), node.parameters.toolDescription]);
		expect(Object.fromEntries(tools.map((t) => [t.name, t.description]))).toEqual(Object.fromEntries(described ?? []));
		// Each says only what holds for any ERP, naming no record field or filter (the arguments say what they are).
		const names = [...(await recordFieldNames(session.sandbox)), ...parameterNames()];
		for (const tool of tools) {
			expect(tool.description).toMatch(/Costs \d ERP request/);
			expect(tool.description?.length).toBeLessThanOrEqual(TOOL_TEXT_MAX_LENGTH);
			expect({ tool: tool.name, named: namedIn(tool.description ?? '', names, tool.name === 'Create_or_update_contact' ? 'email' : undefined) }).toEqual({ tool: tool.name, named: [] });
			const properties = Object.values((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>);
			for (const property of properties) expect(property.description?.length).toBeGreaterThan(10);
		}
		// n8n gives a $fromAI() argument of type json no type in the schema: its description tells the model the form.
		const lines = (tools.find((t) => t.name === 'Create_invoice')?.inputSchema.properties as Record<string, { description: string }>).lines;
		expect(lines.description).toMatch(/description .*quantity .*unit_price/);
	});

	let contact: Contact;
	test('Create or update contact: the first call creates, the same call repeated updates that contact, never a duplicate', async () => {
		const args = { email: 'ada.mcp@example.com', first_name: 'Ada', last_name: 'Lovelace', company: 'Analytical Engines Ltd', phone: '+44 20 7946 0001' };

		const first = await call('Create_or_update_contact', args);
		const second = await call('Create_or_update_contact', args);

		const stored = (await session.sandbox.records('contacts')).filter((c) => c.email === args.email);
		expect(stored).toHaveLength(1);
		contact = stored[0];
		expect(contact).toMatchObject(args);
		expect(first.result.isError).toBeUndefined();
		expect(json(first.text)).toEqual([expect.objectContaining({ id: contact.id, action: 'created', ...args })]);
		expect(json(second.text)).toEqual([expect.objectContaining({ id: contact.id, action: 'updated', ...args })]);
		// Found by its e-mail address, then created; found again, read and written back whole: 2 and 3 requests.
		expect(first.seen).toEqual(['GET /contacts 200', 'POST /contacts 201']);
		expect(first.requests[0].query).toMatchObject({ email: args.email });
		expect(second.seen).toEqual(['GET /contacts 200', `GET /contacts/${contact.id} 200`, `PUT /contacts/${contact.id} 200`]);
	});

	test('Find contacts: by e-mail address, in one request of at most 10 records', async () => {
		const { result, text, requests, seen } = await call('Find_contacts', { search: contact.email });

		expect(result.isError).toBeUndefined();
		const found = json(text);
		const { id, email, first_name, last_name, company, phone } = contact;
		expect(found).toEqual([expect.objectContaining({ id, email, first_name, last_name, company, phone })]);
		// n8n's guideline for what a model reads: at most 10 fields a record.
		expect(Object.keys(found[0]).length).toBeLessThanOrEqual(10);
		expect(seen).toEqual(['GET /contacts 200']);
		expect(requests[0].query).toMatchObject({ search: contact.email, per_page: '10' });
	});

	let invoice: Invoice;
	test('Create invoice with two lines, Send it, Mark it paid: one request each, the invoice as the ERP holds it after each', async () => {
		const lines = [
			{ description: 'Consulting, hours', quantity: 3, unit_price: 120 },
			{ description: 'Travel', quantity: 1, unit_price: 45.5 },
		];

		const created = await call('Create_invoice', { contact_id: contact.id, lines, currency: 'EUR' });
		const mine = (await session.sandbox.records('invoices')).filter((i) => i.contact_id === contact.id);
		expect(mine).toHaveLength(1);
		invoice = mine[0];
		expect(invoice).toMatchObject({ status: 'draft', currency: 'EUR', lines: lines.map((line) => expect.objectContaining(line)), total: 405.5 });
		expect(created.seen).toEqual(['POST /invoices 201']);
		expect(created.requests[0].body).toEqual({ contact_id: contact.id, currency: 'EUR', lines });
		expect(json(created.text)).toEqual([expect.objectContaining({ id: invoice.id, number: invoice.number, total: 405.5 })]);

		const sent = await call('Send_invoice', { invoice_id: invoice.id });
		expect(sent.seen).toEqual([`POST /invoices/${invoice.id}/send 200`]);
		expect(await session.sandbox.record('invoices', invoice.id)).toMatchObject({ status: 'sent' });
		expect(json(sent.text)).toEqual([expect.objectContaining({ id: invoice.id, status: 'sent' })]);

		const paid = await call('Mark_invoice_paid', { invoice_id: invoice.id, reference: 'BANK-2026-0042' });
		expect(paid.seen).toEqual([`POST /invoices/${invoice.id}/mark-paid 200`]);
		expect(paid.requests[0].body).toEqual({ payment_method: 'bank_transfer', reference: 'BANK-2026-0042' });
		expect(await session.sandbox.record('invoices', invoice.id)).toMatchObject({ status: 'paid', amount_due: 0, payment_reference: 'BANK-2026-0042' });
		expect(json(paid.text)).toEqual([expect.objectContaining({ id: invoice.id, status: 'paid' })]);
	});

	test('Find invoices by status, Find products by SKU, Get product stock: one request each', async () => {
		const product = (await session.sandbox.records('products'))[2];
		const rows = (await session.sandbox.records('stock')).filter((row) => row.product_id === product.id);

		const paid = await call('Find_invoices', { status: 'paid' });
		const products = await call('Find_products', { search: product.sku });
		const stock = await call('Get_product_stock', { product_id: product.id });

		expect(paid.seen).toEqual(['GET /invoices 200']);
		expect(paid.requests[0].query).toMatchObject({ status: 'paid', per_page: '10' });
		const invoices = json(paid.text);
		expect(invoices.length).toBeGreaterThan(0);
		expect(invoices.length).toBeLessThanOrEqual(10);
		expect(invoices.every((i) => i.status === 'paid')).toBe(true);
		expect(products.seen).toEqual(['GET /products 200']);
		expect(json(products.text)).toEqual([expect.objectContaining({ id: product.id, sku: product.sku, stock_total: product.stock_total })]);
		expect(stock.seen).toEqual([`GET /products/${product.id}/stock 200`]);
		expect(json(stock.text)).toEqual(rows.map(({ warehouse_id, quantity, reserved, available }) => expect.objectContaining({ warehouse_id, quantity, reserved, available })));
	});

	/** An error a model reads: the tool's error result, naming what to change, and never a secret or a stack. */
	const expectToolError = (text: string) => {
		expect(text).not.toContain(session.ctx.token);
		expect(text).not.toContain(token);
		expect(text).not.toMatch(/\n\s+at /);
	};

	describe('a call that fails answers a tool error the model can act on, and the next call works', () => {
		test('an unknown ID: the record named, not found (404), one request', async () => {
			const { result, text, seen } = await call('Get_product_stock', { product_id: 999999 });

			expect(result.isError).toBe(true);
			expect(text).toMatch(/Product 999999 was not found \(404\)/);
			expect(text).toMatch(/Check the ID/);
			expectToolError(text);
			expect(seen).toEqual(['GET /products/999999/stock 404']);
		});

		test("the ERP's 422: its field and message, and nothing written", async () => {
			const before = (await session.sandbox.records('invoices')).length;

			const { result, text, seen } = await call('Create_invoice', { contact_id: 999999, lines: [{ description: 'Consulting', quantity: 1, unit_price: 100 }] });

			expect(result.isError).toBe(true);
			expect(text).toMatch(/The ERP refused to create the invoice \(422\): contact_id: contact 999999 does not exist/);
			expectToolError(text);
			expect(seen).toEqual(['POST /invoices 422']);
			expect(await session.sandbox.records('invoices')).toHaveLength(before);
		});

		test('a rule of the ERP: an invoice already paid cannot be paid again (422, its field named)', async () => {
			const { result, text, seen } = await call('Mark_invoice_paid', { invoice_id: invoice.id });

			expect(result.isError).toBe(true);
			expect(text).toMatch(new RegExp(`The ERP refused to mark invoice ${invoice.id} as paid \\(422\\): status: invoice is already paid`));
			expectToolError(text);
			expect(seen).toEqual([`POST /invoices/${invoice.id}/mark-paid 422`]);
		});

		test('a required argument missing, or of the wrong type: n8n refuses the call by the input schema, naming the argument, before any request', async () => {
			const missing = await call('Create_invoice', { contact_id: contact.id });
			const wrongType = await call('Get_product_stock', { product_id: 'three' });

			expect(missing.result.isError).toBe(true);
			expect(missing.text).toMatch(/did not match expected schema[\s\S]*at lines/);
			expect(wrongType.result.isError).toBe(true);
			expect(wrongType.text).toMatch(/Expected number, received string[\s\S]*at product_id/);
			expect([...missing.seen, ...wrongType.seen]).toEqual([]);
		});

		test('a rate limit that outlasts the retries: the 429 and what to change, after 1 + 5 requests', async () => {
			const product = (await session.sandbox.records('products'))[2];
			await session.sandbox.queueFault({ match: { method: 'GET', path: `/products/${product.id}/stock` }, fault: { kind: 'rateLimit', retryAfter: 1 }, times: 6 });

			const { result, text, seen } = await call('Get_product_stock', { product_id: product.id });

			expect(result.isError).toBe(true);
			expect(text).toMatch(/The ERP is still rate-limiting requests after 5 retries \(429\)/);
			expectToolError(text);
			expect(seen).toEqual(Array(6).fill(`GET /products/${product.id}/stock 429`));
			const after = await call('Get_product_stock', { product_id: product.id });
			expect(after.result.isError).toBeUndefined();
			expect(after.seen).toEqual([`GET /products/${product.id}/stock 200`]);
		});
	});
});
