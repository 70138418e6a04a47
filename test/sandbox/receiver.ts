import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
	headers: IncomingHttpHeaders;
	raw: string;
	/** Parsed from `raw`; a body that is not JSON (a forged one) is kept as its text here too. */
	body: { event: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
	url: string;
	received: Received[];
	/** Statuses for the next requests, in order; after them every request gets 200. */
	answerWith(statuses: number[]): void;
	close(): Promise<void>;
}

function parsed(raw: string): Received['body'] {
	try {
		return JSON.parse(raw) as Received['body'];
	} catch {
		return raw as unknown as Received['body'];
	}
}

/** A real local HTTP server that records webhook deliveries. */
export async function startReceiver(): Promise<Receiver> {
	const received: Received[] = [];
	let statuses: number[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			received.push({ headers: req.headers, raw, body: parsed(raw) });
			res.writeHead(statuses.shift() ?? 200).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
		received,
		answerWith: (next) => {
			statuses = [...next];
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * One receiver for a whole test file: started before its tests, emptied (and answering 200 again) before each,
 * closed after them. The object it returns is filled in by beforeAll.
 */
export function useReceiver(): Receiver {
	const shared = {} as Receiver;
	beforeAll(async () => {
		Object.assign(shared, await startReceiver());
	});
	afterAll(() => shared.close());
	beforeEach(() => {
		shared.received.length = 0;
		shared.answerWith([]);
	});
	return shared;
}
