import { runListSearch } from './run-list-search';
import { Echo } from './fixtures/Echo.node';
import { EchoApi } from './fixtures/EchoApi.credentials';
import { startEchoServer, type EchoServer } from './fixtures/echo-server';

describe('runListSearch', () => {
	let server: EchoServer;

	beforeAll(async () => {
		server = await startEchoServer();
	});

	afterAll(async () => {
		await server.close();
	});

	const search = (filter?: string, paginationToken?: string) =>
		runListSearch({
			nodeType: new Echo(),
			method: 'searchRecords',
			credentialType: new EchoApi(),
			credentials: { baseUrl: server.url, apiToken: 'token-123', tenant: 'acme' },
			filter,
			paginationToken,
		});

	it('calls the method with the credential applied, and pages with its token', async () => {
		const first = await search();
		const second = await search(undefined, first.paginationToken as string);

		expect(first).toEqual({
			results: [
				{ name: 'Alpha', value: '1' },
				{ name: 'Beta', value: '2' },
			],
			paginationToken: '2',
		});
		expect(second.results).toEqual([
			{ name: 'Gamma', value: '3' },
			{ name: 'Delta', value: '4' },
		]);
		expect(second.paginationToken).toBeUndefined();
		expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer token-123');
		expect(server.requests.at(-1)?.url).toBe('/records?page=2&tenant=acme');
	});

	it('passes the filter', async () => {
		const { results } = await search('ta');

		expect(results).toEqual([
			{ name: 'Beta', value: '2' },
			{ name: 'Delta', value: '4' },
		]);
	});

	it('rejects an unknown method', async () => {
		await expect(
			runListSearch({ nodeType: new Echo(), method: 'nope', credentialType: new EchoApi(), credentials: {} }),
		).rejects.toThrow('Node "echo" has no listSearch method "nope"');
	});
});
