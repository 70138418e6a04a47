import type { NodeApiError } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from './run-node';
import { Echo } from './fixtures/Echo.node';
import { EchoApi } from './fixtures/EchoApi.credentials';
import { startEchoServer, type EchoServer } from './fixtures/echo-server';

describe('runNode', () => {
	let server: EchoServer;

	beforeEach(async () => {
		server = await startEchoServer();
	});

	afterEach(async () => {
		await server.close();
	});

	/** Runs the Echo node; `parameters` are merged over record 42 and message "hello". */
	const run = ({ parameters, ...overrides }: Partial<RunNodeOptions> = {}) =>
		runNode({
			nodeType: new Echo(),
			credentialType: new EchoApi(),
			credentials: { baseUrl: server.url, apiToken: 'token-123' },
			parameters: { record: { __rl: true, mode: 'id', value: '42' }, message: 'hello', ...parameters },
			...overrides,
		});

	it('applies the credential type’s generic authenticate (header and query), with credential defaults', async () => {
		const { items, error } = await run();

		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(1);
		expect(server.requests[0].headers.authorization).toBe('Bearer token-123');
		expect(server.requests[0].url).toBe('/echo/42?tenant=default-tenant');
		expect(items.map((item) => item.json)).toEqual([
			{ id: '42', received: { message: 'hello' }, tenant: 'default-tenant', version: 2 },
		]);
	});

	it('resolves expressions in credential data', async () => {
		await run({ credentials: { baseUrl: server.url, apiToken: '={{ "tok" + "-" + (40 + 2) }}', tenant: 'acme' } });

		expect(server.requests[0].headers.authorization).toBe('Bearer tok-42');
		expect(server.requests[0].url).toBe('/echo/42?tenant=acme');
	});

	it('resolves parameter expressions per item, inside resource locators too', async () => {
		const { items } = await run({
			parameters: {
				record: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				message: '={{ $json.text.toUpperCase() }} from {{ $("Start").item.json.id }}',
			},
			input: [
				{ id: 'a', text: 'one' },
				{ id: 'b', text: 'two' },
			],
		});

		expect(server.requests.map((request) => request.url)).toEqual([
			'/echo/a?tenant=default-tenant',
			'/echo/b?tenant=default-tenant',
		]);
		expect(items.map((item) => item.json.received)).toEqual([{ message: 'ONE from a' }, { message: 'TWO from b' }]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('runs the requested type version', async () => {
		const { items } = await run({ typeVersion: 1 });

		expect(items[0].json.version).toBe(1);
	});

	it('records the error as n8n records it: the NodeApiError’s fields', async () => {
		const { items, outputs, error } = await run({
			parameters: { record: { __rl: true, mode: 'id', value: 'missing' } },
		});

		expect(items).toEqual([]);
		expect(outputs).toEqual([]);
		expect(error).toMatchObject({ name: 'NodeApiError', message: 'The resource you are requesting could not be found' });
		expect((error as NodeApiError).httpCode).toBe('404');
		expect((error as NodeApiError).description).toContain('Record missing was not found');
	});

	it('turns a failing item into an error item when the node continues on fail', async () => {
		const { items, error } = await run({
			parameters: { record: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			input: [{ id: 'missing' }, { id: 'ok' }],
			continueOnFail: true,
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ error: 'The resource you are requesting could not be found' },
			{ id: 'ok', received: { message: 'hello' }, tenant: 'default-tenant', version: 2 },
		]);
	});

	it('records the ExpressionError of a parameter that cannot be resolved, before any request', async () => {
		const { items, error } = await run({ parameters: { message: '={{ $("Nope").item.json.x }}' } });

		expect(items).toEqual([]);
		expect(error).toMatchObject({ name: 'ExpressionError', message: "Referenced node doesn't exist" });
		expect(server.requests).toHaveLength(0);
	});

	it('resolves an expression that throws a TypeError to nothing, as n8n does', async () => {
		const { items, error } = await run({
			parameters: { message: '={{ $json.count.toUpperCase() }}' },
			input: [{ count: 5 }],
		});

		expect(error).toBeUndefined();
		expect(items[0].json.received).toEqual({});
	});
});
