import { randomUUID } from 'node:crypto';

import type { Credential } from '../../tooling/host/types';
import { chain, node, webhookNode } from '../../tooling/host/workflows';
import { useSession } from './setup/session';

const session = useSession();

describe('ERP API credential: the Test button of a real n8n', () => {
	/** Tests data as the credential dialog sends it, and returns n8n's verdict and what the sandbox saw. */
	const test_ = async (data: { baseUrl: string; apiToken: string }) => {
		const since = await session.sandbox.lastRequestSeq();
		const result = await session.n8n.testCredential(session.ctx.credentials.good, data);
		const requests = await session.sandbox.requests(since);
		return { result, requests: requests.map((r) => ({ path: r.path, query: r.query, status: r.status, auth: r.auth })) };
	};
	/** The message shown for an error status: the credential's own, or on n8n 1.x n8n's generic one (see N8nLine). */
	const shown = (own: string, generic: string) => (session.n8n.line.credentialTestRuleMessages ? own : generic);

	test('the right token: OK, after one cheap read of one contact', async () => {
		const { result, requests } = await test_({ baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.token });

		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(requests).toEqual([{ path: '/contacts', query: { page: '1', per_page: '1' }, status: 200, auth: 'full' }]);
	});

	test('a read-only token passes too (reading is what it may do), and so does a trailing slash after /api/v1', async () => {
		const readOnly = await test_({ baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.readOnlyToken });
		const slash = await test_({ baseUrl: `${session.ctx.sandboxBaseUrl}/`, apiToken: session.ctx.token });

		expect([readOnly.result.status, slash.result.status]).toEqual(['OK', 'OK']);
		expect(readOnly.requests.map((r) => r.auth)).toEqual(['readonly']);
	});

	test('a wrong token, or a Base URL without /api/v1: Error, with the message telling where to get the right token or the right shape', async () => {
		const wrongToken = await test_({ baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.wrongToken });
		const noApiV1 = await test_({ baseUrl: session.ctx.sandboxUrl, apiToken: session.ctx.token });

		expect(wrongToken.result).toEqual({
			status: 'Error',
			message: shown('The ERP rejected the API token: copy it again from Settings › API keys', 'Authorization failed - please check your credentials'),
		});
		expect(wrongToken.requests.length).toBeGreaterThan(0);
		expect(wrongToken.requests.every((r) => r.status === 401 && r.auth === 'invalid')).toBe(true);
		expect(noApiV1.result).toEqual({
			status: 'Error',
			message: shown('Nothing answers at this Base URL: it must end with /api/v1, e.g. https://erp.example.com/api/v1', 'The resource you are requesting could not be found'),
		});
	});
});

/**
 * The ERP API credential outside the ERP node: n8n's HTTP Request node, Authentication › Predefined Credential
 * Type › ERP API, as users call endpoints the node does not cover. The credential's `authenticate` must put the
 * token where the ERP expects it, whichever node asks.
 */
describe('ERP API credential in the HTTP Request node (Predefined Credential Type)', () => {
	// 4.2: in both tested n8n lines (1.123 has up to 4.3, 2.41 up to 4.5); the credential handling is the same.
	const httpRequestNode = (credential: Credential) =>
		node(
			'HTTP Request',
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				method: 'GET',
				url: `${session.ctx.sandboxBaseUrl}/contacts`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: 'erpApi',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'per_page', value: '2' }] },
				options: {},
			},
			{ position: [240, 0], credentials: { erpApi: { id: credential.id, name: credential.name } } },
		);

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
