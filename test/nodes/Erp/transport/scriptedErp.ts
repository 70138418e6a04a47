import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
	method: string;
	/** The path below /api/v1. */
	path: string;
	query: Record<string, string>;
}

export interface ScriptedAnswer {
	status: number;
	/** A string is sent as it is; anything else as JSON. */
	body?: unknown;
}

/** How the ERP answers the n-th request of a test; `'hold'` answers nothing until the server closes. */
export type Script = (request: SeenRequest, n: number) => ScriptedAnswer | 'hold';

/**
 * An ERP that answers as the test's script says, for the answers the sandbox cannot give (a list without the
 * envelope, records without an ID, a request held on the wire). One server per test file on a free port; each test
 * sets its script with `answer()`, which also clears what the server saw.
 */
export function useScriptedErp() {
	let script: Script = () => ({ status: 404 });
	const requests: SeenRequest[] = [];
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://erp.local');
		const request = { method: req.method ?? 'GET', path: url.pathname.replace(/^\/api\/v1/, ''), query: Object.fromEntries(url.searchParams) };
		requests.push(request);
		req.resume();
		req.on('end', () => {
			const answer = script(request, requests.length);
			if (answer === 'hold') return;
			const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '');
			res.writeHead(answer.status, { 'Content-Type': typeof answer.body === 'string' ? 'text/plain' : 'application/json' });
			res.end(text);
		});
	});
	beforeAll(async () => await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	});
	return {
		get baseUrl() {
			return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
		},
		requests,
		answer(next: Script) {
			script = next;
			requests.splice(0);
			// A request held by the previous test must not linger into this one.
			server.closeAllConnections();
		},
	};
}
