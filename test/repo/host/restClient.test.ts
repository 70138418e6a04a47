import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NESTED_TRANSACTION, N8nClient } from '../../../tooling/host/restClient';

// n8n 1.x's SQLite may refuse to begin a transaction while another request writes (500, nothing written): the test
// host sends such a call again instead of failing the test that was only setting up; any other 500 fails at once.

/** A stand-in for n8n's REST API answering POST /rest/workflows with the scripted statuses, then 200. */
async function scripted(answers: Array<{ status: number; body: string }>) {
	const seen: string[] = [];
	const server: Server = createServer((request, response) => {
		seen.push(`${request.method} ${request.url}`);
		request.resume();
		const next = answers.shift() ?? { status: 200, body: JSON.stringify({ data: { id: 'wf1', name: 'w', active: false, nodes: [], connections: {} } }) };
		response.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
	});
	await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
	const { port } = server.address() as AddressInfo;
	return { n8n: new N8nClient(`http://127.0.0.1:${port}`), seen, stop: () => new Promise<void>((closed) => server.close(() => closed())) };
}

const nested = { status: 500, body: JSON.stringify({ code: 0, message: `SQLITE_ERROR: ${NESTED_TRANSACTION}` }) };

describe("the test host's REST client", () => {
	it('sends a call again after SQLite refused to begin its transaction, and answers what n8n then answered', async () => {
		const server = await scripted([nested, nested]);
		try {
			const saved = await server.n8n.rest<{ id: string }>('POST', '/rest/workflows', { name: 'w' });
			expect(saved.id).toBe('wf1');
			expect(server.seen).toEqual(['POST /rest/workflows', 'POST /rest/workflows', 'POST /rest/workflows']);
		} finally {
			await server.stop();
		}
	});

	it('gives up after four such refusals, with n8n’s answer in the error', async () => {
		const server = await scripted([nested, nested, nested, nested]);
		try {
			await expect(server.n8n.rest('POST', '/rest/workflows', { name: 'w' })).rejects.toThrow(`n8n answered 500 to POST /rest/workflows: {"code":0,"message":"SQLITE_ERROR: ${NESTED_TRANSACTION}"}`);
			expect(server.seen).toHaveLength(4);
		} finally {
			await server.stop();
		}
	});

	it('sends any other 500 once', async () => {
		const server = await scripted([{ status: 500, body: '{"message":"SQLITE_CONSTRAINT: UNIQUE constraint failed"}' }]);
		try {
			await expect(server.n8n.rest('POST', '/rest/workflows', { name: 'w' })).rejects.toThrow('n8n answered 500');
			expect(server.seen).toHaveLength(1);
		} finally {
			await server.stop();
		}
	});
});
