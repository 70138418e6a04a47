import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ExecutionStatus } from 'n8n-workflow';

/** An execution of the script: listed from request `startsAt`, finished from `endsAt`, its node output saved from `savedAt` (default `endsAt`; later: n8n 1.x's two writes). */
export interface ScriptedExecution {
	id: string;
	startsAt: number;
	endsAt: number;
	savedAt?: number;
}

export const API_KEY = 'scripted-api-key';

/**
 * A stand-in for n8n's public API executions endpoints (the list, and one by id) whose executions start and finish as
 * requests come: each request moves the script one step on, so a wait sees the same sequence however fast it polls.
 * It records each URL and whose data it served: what the host's waits are judged by.
 */
export class ScriptedExecutionsApi {
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
