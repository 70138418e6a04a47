import { connect, type Session } from '../../tooling/host/session';

describe('ERP API credential: the Test button of a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

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

	test('a read-only token passes too: reading is what it may do', async () => {
		const { result, requests } = await test_({ baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.readOnlyToken });

		expect(result.status).toBe('OK');
		expect(requests.map((r) => r.auth)).toEqual(['readonly']);
	});

	test('a wrong token fails with the message telling where to get the right one', async () => {
		const { result, requests } = await test_({ baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.wrongToken });

		expect(result).toEqual({
			status: 'Error',
			message: shown('The ERP rejected the API token: copy it again from Settings › API keys', 'Authorization failed - please check your credentials'),
		});
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((r) => r.status === 401 && r.auth === 'invalid')).toBe(true);
	});

	test('a Base URL without /api/v1 fails with the message showing the right shape', async () => {
		const { result } = await test_({ baseUrl: session.ctx.sandboxUrl, apiToken: session.ctx.token });

		expect(result).toEqual({
			status: 'Error',
			message: shown(
				'Nothing answers at this Base URL: it must end with /api/v1, e.g. https://erp.example.com/api/v1',
				'The resource you are requesting could not be found',
			),
		});
	});

	test('a trailing slash after /api/v1 is accepted', async () => {
		const { result } = await test_({ baseUrl: `${session.ctx.sandboxBaseUrl}/`, apiToken: session.ctx.token });

		expect(result.status).toBe('OK');
	});
});
