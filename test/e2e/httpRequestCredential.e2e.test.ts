import { randomUUID } from 'node:crypto';

import type { Credential, WorkflowNode } from '../../tooling/host/types';
import { connect, type Session } from '../../tooling/host/session';
import { chain, webhookNode } from '../../tooling/host/workflows';

/**
 * The ERP API credential outside the ERP node: n8n's HTTP Request node, Authentication › Predefined Credential
 * Type › ERP API, as users call endpoints the node does not cover. The credential's `authenticate` must put the
 * token where the ERP expects it, whichever node asks.
 */
describe('ERP API credential in the HTTP Request node (Predefined Credential Type)', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	const httpRequestNode = (credential: Credential): WorkflowNode => ({
		id: randomUUID(),
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		// 4.2: in both tested n8n lines (1.123 has up to 4.3, 2.41 up to 4.5); the credential handling is the same.
		typeVersion: 4.2,
		position: [240, 0],
		parameters: {
			method: 'GET',
			url: `${session.ctx.sandboxBaseUrl}/contacts`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'erpApi',
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'per_page', value: '2' }] },
			options: {},
		},
		credentials: { erpApi: { id: credential.id, name: credential.name } },
	});

	/** Runs Webhook → HTTP Request and answers n8n's answer and the requests the sandbox logged meanwhile. */
	const run = async (credential: Credential) => {
		const path = `http-request-erp-credential-${randomUUID()}`;
		await session.n8n.createActiveWorkflow(chain(`e2e ${path}`, [webhookNode(path), httpRequestNode(credential)]));
		const since = await session.sandbox.lastRequestSeq();
		const response = await session.n8n.callWebhook(path, {});
		return { response, requests: await session.sandbox.requests(since) };
	};

	test('sends the bearer token: the ERP answers the list as for the ERP node', async () => {
		const { response, requests } = await run(session.ctx.credentials.good);

		expect(requests.map((r) => ({ method: r.method, path: r.path, query: r.query, status: r.status, auth: r.auth }))).toEqual([
			{ method: 'GET', path: '/contacts', query: { per_page: '2' }, status: 200, auth: 'full' },
		]);
		expect(response.status).toBe(200);
		const [item] = response.body as Array<{ success: boolean; data: unknown[]; meta: { per_page: number } }>;
		expect(item.success).toBe(true);
		expect(item.data).toHaveLength(2);
		expect(item.meta.per_page).toBe(2);
	});

	test("a wrong token reaches the ERP as that token and fails the workflow with the ERP's 401", async () => {
		const { response, requests } = await run(session.ctx.credentials.wrongToken);

		expect(requests.map((r) => ({ path: r.path, status: r.status, auth: r.auth }))).toEqual([{ path: '/contacts', status: 401, auth: 'invalid' }]);
		expect(response.status).toBe(500);
	});
});
