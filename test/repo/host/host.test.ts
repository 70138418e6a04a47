import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionStatus } from 'n8n-workflow';

import { atLeast, executionsAtRest, finishedExecution, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { NESTED_TRANSACTION, N8nClient } from '../../../tooling/host/restClient';

/** An execution of the script: listed from request `startsAt`, finished from `endsAt`, its node output saved from `savedAt` (default `endsAt`; later: n8n 1.x's two writes). */
interface ScriptedExecution {
	id: string;
	startsAt: number;
	endsAt: number;
	savedAt?: number;
}

const API_KEY = 'scripted-api-key';

/**
 * A stand-in for n8n's public API executions endpoints (the list, and one by id) whose executions start and finish as
 * requests come: each request moves the script one step on, so a wait sees the same sequence however fast it polls.
 * It records each URL and whose data it served: what the host's waits are judged by.
 */
class ScriptedExecutionsApi {
	readonly urls: string[] = [];
	/** The ids of the executions whose data was served, once per time served. */
	readonly dataServed: string[] = [];
	private readonly server = createServer((request, response) => this.answer(request, response));

	constructor(readonly workflowId: string, private readonly script: ScriptedExecution[]) {}

	async start(): Promise<string> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async stop(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise((resolve) => this.server.close(resolve));
	}

	/** The URLs requested with `includeData=true`, in order. */
	get withData(): string[] {
		return this.urls.filter((url) => url.includes('includeData=true'));
	}

	private answer(request: IncomingMessage, response: ServerResponse): void {
		const step = this.urls.length;
		this.urls.push(request.url ?? '');
		const url = new URL(request.url ?? '', 'http://n8n');
		const includeData = url.searchParams.get('includeData') === 'true';
		const reply = (status: number, body: unknown) => {
			response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
		};
		if (request.headers['x-n8n-api-key'] !== API_KEY) return reply(401, { message: 'unauthorized' });
		const visible = this.script.filter((execution) => execution.startsAt <= step);
		if (url.pathname === '/api/v1/executions' && url.searchParams.get('workflowId') === this.workflowId) {
			// Newest first, as n8n lists them.
			const data = [...visible].reverse().map((execution) => this.execution(execution, step, includeData));
			return reply(200, { data, nextCursor: null });
		}
		const byId = /^\/api\/v1\/executions\/([^/]+)$/.exec(url.pathname);
		const found = byId && visible.find((execution) => execution.id === byId[1]);
		if (found) return reply(200, this.execution(found, step, includeData));
		reply(404, { message: 'Not Found' });
	}

	private execution(execution: ScriptedExecution, step: number, includeData: boolean) {
		const status: ExecutionStatus = step >= execution.endsAt ? 'success' : 'running';
		if (includeData) this.dataServed.push(execution.id);
		const runData = step >= (execution.savedAt ?? execution.endsAt) ? { Done: [{ data: { main: [[{ json: { execution: execution.id } }]] } }] } : {};
		return {
			id: execution.id,
			workflowId: this.workflowId,
			mode: 'manual',
			status,
			startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, execution.startsAt)).toISOString(),
			stoppedAt: status === 'success' ? new Date(Date.UTC(2026, 0, 1, 0, 0, execution.endsAt)).toISOString() : null,
			...(includeData && { data: { resultData: { runData } } }),
		};
	}
}

// n8n 1.x's SQLite may refuse to begin a transaction while another request writes (500, nothing written): the test
// host sends such a call again instead of failing the test that was only setting up; any other 500 fails at once.
// Each test has its own stand-in, so they run side by side.

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
	const refused = `n8n answered 500 to POST /rest/workflows: {"code":0,"message":"SQLITE_ERROR: ${NESTED_TRANSACTION}"}`;
	const other = { status: 500, body: '{"message":"SQLITE_CONSTRAINT: UNIQUE constraint failed"}' };
	it.concurrent.each([
		['sends a call again after SQLite refused to begin its transaction, and answers what n8n then answered', [nested, nested], 3, 'wf1'],
		['gives up after four such refusals, with n8n’s answer in the error', [nested, nested, nested, nested], 4, refused],
		['sends any other 500 once', [other], 1, `n8n answered 500 to POST /rest/workflows: ${other.body}`],
	])('%s', async (_title, answers, sent, outcome) => {
		const server = await scripted(answers);
		try {
			const saved = server.n8n.rest<{ id: string }>('POST', '/rest/workflows', { name: 'w' });
			expect(await saved.then(({ id }) => id, (error: Error) => error.message)).toBe(outcome);
			expect(server.seen).toEqual(Array(sent).fill('POST /rest/workflows'));
		} finally {
			await server.stop();
		}
	});
});

// How the test host waits for n8n, counted in the requests it sends (each test against its own stand-in, side by side:
// the waits poll every 250 ms): waiting must not make n8n serve data it does
// not need (a self-calling workflow made each wait read every month's sub-execution again and again).
const SUBS = 5;

/** A manual run (id 1) of a workflow that calls itself SUBS times, one sub-execution after the other. */
const selfCalling: ScriptedExecution[] = [
	{ id: '1', startsAt: 0, endsAt: 3 * SUBS + 2 },
	...Array.from({ length: SUBS }, (_, i) => ({ id: String(i + 2), startsAt: 3 * i + 1, endsAt: 3 * i + 3 })),
];

/** An active workflow that runs SUBS times, one run after the other, each finished before the next starts. */
const oneAfterTheOther: ScriptedExecution[] = Array.from({ length: SUBS }, (_, i) => ({ id: String(i + 1), startsAt: 3 * i, endsAt: 3 * i + 1 }));

async function against<T>(script: ScriptedExecution[], wait: (n8n: N8nClient) => Promise<T>) {
	const api = new ScriptedExecutionsApi('wf1', script);
	try {
		const result = await wait(new N8nClient(await api.start(), API_KEY));
		return { api, result };
	} finally {
		await api.stop();
	}
}

describe("the test host's wait for executions", () => {
	it.concurrent('waits for one execution while its sub-executions run, reading its data once and no other execution', async () => {
		const { api, result } = await against(selfCalling, (n8n) => finishedExecution(n8n, '1'));

		expect(api.withData).toEqual(['/api/v1/executions/1?includeData=true']);
		expect(api.dataServed).toEqual(['1']);
		expect(nodeOutput(result, 'Done')).toEqual([{ execution: '1' }]);
		// It saw the sub-executions come and go: the run was still going on while it polled.
		expect(api.urls.length).toBeGreaterThan(3 * SUBS);
	});

	it.concurrent('reads the one execution again while n8n 1.x has saved its status but not yet its data', async () => {
		const savedLate = selfCalling.map((execution) => (execution.id === '1' ? { ...execution, savedAt: execution.endsAt + 2 } : execution));
		const { api, result } = await against(savedLate, (n8n) => finishedExecution(n8n, '1'));

		expect(new Set(api.dataServed)).toEqual(new Set(['1']));
		expect(nodeOutput(result, 'Done')).toEqual([{ execution: '1' }]);
	});

	it.concurrent.each([
		['a workflow that runs one run after the other, however often its list grows', oneAfterTheOther],
		['a self-calling workflow', selfCalling],
	])("waits for every execution of %s reading each one's data once", async (_what, script) => {
		const { api, result } = await against(script, (n8n) => waitForExecutions(n8n, 'wf1', atLeast(script.length)));

		const ids = script.map((execution) => execution.id);
		expect(api.dataServed.sort()).toEqual([...ids].sort());
		expect(api.withData.every((url) => /^\/api\/v1\/executions\/\d+\?includeData=true$/.test(url))).toBe(true);
		expect(result.map((execution) => execution.id)).toEqual(ids);
	});

	it.concurrent('waits for executions to come to rest, listing them without data, then reads each one\'s data once', async () => {
		// At least one awaited: all six come, the manual run and its sub-executions.
		const { api, result } = await against(selfCalling, (n8n) => executionsAtRest(n8n, 'wf1', 1, 0));

		expect(api.withData).toEqual(['/api/v1/executions?workflowId=wf1&includeData=true&limit=100']);
		expect(api.dataServed.sort()).toEqual(selfCalling.map((execution) => execution.id).sort());
		expect(result.map((execution) => execution.status)).toEqual(Array(SUBS + 1).fill('success'));
	});

	it.concurrent('throws, saying what it saw, when fewer executions come than the least awaited', async () => {
		const waiting = against(oneAfterTheOther, (n8n) => executionsAtRest(n8n, 'wf1', SUBS + 1, 0, 200));

		// How many it saw in 0.2 s depends on how fast the machine answers (each request moves the script on).
		await expect(waiting).rejects.toThrow(new RegExp(`^workflow wf1: not at least ${SUBS + 1} executions, all finished and holding still, within 0\\.2 s; saw [1-${SUBS}]: 1 success`));
	});
});
