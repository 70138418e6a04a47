/**
 * The physical limit: Node's own http with a keep-alive agent, no framework. Runs in its own process under the
 * Node that runs n8n (so that it neither shares the sandbox's event loop nor a different V8), and answers the
 * bench's tasks over IPC, timing them itself.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

import type { Api, RawReply, RawResult, RawTask } from './rawTasks';

interface Envelope<T> {
	data: T;
	meta?: { page: number; per_page: number; total: number };
}

interface Stored {
	id: number;
}

function call<T>(agent: http.Agent, api: Api, method: 'GET' | 'POST', path: string, body?: object): Promise<Envelope<T>> {
	const payload = body === undefined ? undefined : JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const request = http.request(
			`${api.baseUrl}${path}`,
			{
				method,
				agent,
				headers: {
					Authorization: `Bearer ${api.token}`,
					Accept: 'application/json',
					...(payload === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
				},
			},
			(response) => {
				let text = '';
				response.setEncoding('utf8');
				response.on('data', (chunk: string) => (text += chunk));
				response.on('end', () => {
					if ((response.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 200)}`));
					else resolve(JSON.parse(text) as Envelope<T>);
				});
			},
		);
		request.on('error', reject);
		request.end(payload);
	});
}

const listPage = (agent: http.Agent, api: Api, page: number, perPage: number) =>
	call<Stored[]>(agent, api, 'GET', `/contacts?page=${page}&per_page=${perPage}`);

/** Page after page; with concurrency above 1, the pages the first page's total names, that many at a time. */
async function listAll(agent: http.Agent, api: Api, perPage: number, concurrency: number): Promise<number> {
	const first = await listPage(agent, api, 1, perPage);
	const records: Stored[] = [...first.data];
	if (!first.meta || first.data.length === 0) return records.length;
	const pages = Math.ceil(first.meta.total / first.meta.per_page);
	let next = 2;
	const worker = async () => {
		while (next <= pages) {
			const { data } = await listPage(agent, api, next++, perPage);
			records.push(...data);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return records.length;
}

async function create(agent: http.Agent, task: Extract<RawTask, { kind: 'create' }>): Promise<number> {
	const { api, path, rows, then } = task;
	let next = 0;
	let completed = 0;
	const worker = async () => {
		while (next < rows.length) {
			const row = rows[next++];
			const created = (await call<Stored>(agent, api, 'POST', path, row)).data;
			if (then !== undefined) await call(agent, api, 'POST', `${path}/${created.id}/${then}`);
			completed++;
		}
	};
	await Promise.all(Array.from({ length: task.concurrency }, worker));
	return completed;
}

async function run(task: RawTask): Promise<RawResult> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: task.concurrency });
	const started = performance.now();
	try {
		const count = task.kind === 'listAll' ? await listAll(agent, task.api, task.perPage, task.concurrency) : await create(agent, task);
		return { count, seconds: Math.round(performance.now() - started) / 1000 };
	} finally {
		agent.destroy();
	}
}

process.on('message', (task: RawTask) => {
	run(task).then(
		(result) => process.send?.({ ok: true, result } satisfies RawReply),
		(error: unknown) => process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies RawReply),
	);
});
