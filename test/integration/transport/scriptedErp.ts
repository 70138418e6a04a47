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
	headers?: Record<string, string>;
	/** A string is sent as it is; anything else as JSON. */
	body?: unknown;
}

/**
 * An ERP that answers as a script says, for the answers the sandbox cannot give (a page-ignoring list, a reset
 * header on a 5xx, a refused per_page). `'hold'` answers nothing until the server closes. Listens on a free
 * port; records every request it gets.
 */
export async function startScriptedErp(script: (request: SeenRequest, n: number) => ScriptedAnswer | 'hold') {
	const requests: SeenRequest[] = [];
	let answers = 0;
	const waiting: Array<{ count: number; resolve: () => void }> = [];
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://erp.local');
		const request = { method: req.method ?? 'GET', path: url.pathname.replace(/^\/api\/v1/, ''), query: Object.fromEntries(url.searchParams) };
		requests.push(request);
		req.resume();
		req.on('end', () => {
			const answer = script(request, requests.length);
			if (answer === 'hold') return;
			res.on('finish', () => {
				answers++;
				for (const waiter of waiting.filter((w) => w.count <= answers)) waiter.resolve();
			});
			const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? '');
			res.writeHead(answer.status, { 'Content-Type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers });
			res.end(text);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/api/v1`,
		requests,
		/** Resolves once `count` answers have been sent in full. */
		answered: async (count: number) =>
			await new Promise<void>((resolve) => (answers >= count ? resolve() : waiting.push({ count, resolve }))),
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
