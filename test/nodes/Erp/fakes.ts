// Unit tests of the ERP node (this folder and transport/): fakes for n8n's context, HTTP helper and clock.
import type { IHttpRequestOptions, INode } from 'n8n-workflow';

import type { RequestContext } from '../../../nodes/shared/transport/client';
import type { RawResponse } from '../../../nodes/shared/transport/types';

export const TOKEN = 'tok_live_5f3a9c1e77b24d08';

export const node: INode = {
	id: 'node-1',
	name: 'ERP',
	type: 'n8n-nodes-erp.erp',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	credentials: { erpApi: { id: 'cred-1', name: 'ERP account' } },
};

export type Responder = (options: IHttpRequestOptions, call: number) => RawResponse | Promise<RawResponse>;

/** Answers in the shape n8n's httpRequest gives with returnFullResponse. */
export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): RawResponse {
	return { statusCode, body, headers };
}

/** Throws what n8n's httpRequestWithAuthentication throws on a socket failure: a wrapper whose cause has the code. */
export function networkError(code: string, message = code): never {
	const cause = Object.assign(new Error(message), { code, config: { headers: { Authorization: `Bearer ${TOKEN}` } } });
	throw Object.assign(new Error(`wrapped: ${message}`), { cause });
}

/** A context whose HTTP helper answers from a script and records every request it was asked to send. */
export function fakeContext(responder: Responder, credentials = freshErp()) {
	const calls: IHttpRequestOptions[] = [];
	const ctx = {
		getNode: () => node,
		getCredentials: async () => credentials,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				calls.push(options);
				return await responder(options, calls.length);
			},
		},
	} as unknown as RequestContext;
	return { ctx, calls };
}

let erps = 0;

/** An ERP of its own (Base URL and token) for each test: rate controllers are shared per ERP by the whole process. */
export function freshErp(): { baseUrl: string; apiToken: string } {
	return { baseUrl: `https://erp-${++erps}.test/api/v1`, apiToken: TOKEN };
}

/**
 * Jest's fake time for the transport (Date.now, and n8n's sleep through setTimeout), from `startMs`; `sleeps`
 * records every wait asked. `auto`: a wait ends as soon as nothing else can run (time jumps to the next timer), as
 * if sleeps returned at once. `manual`: time moves only by `advance`. Real time is back after the test.
 */
export function fakeTime(mode: 'auto' | 'manual', startMs = 1_700_000_000_000) {
	jest.useFakeTimers({ now: startMs, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
	jest.spyOn(Math, 'random').mockReturnValue(0.5);
	const sleeps: number[] = [];
	const fakeSetTimeout = global.setTimeout;
	global.setTimeout = ((handler: () => void, ms?: number) => {
		sleeps.push(ms ?? 0);
		return fakeSetTimeout(handler, ms);
	}) as typeof setTimeout;
	const run = ++timeRuns;
	const drive = async () => {
		while (run === timeRuns) {
			await flush();
			await flush();
			if (run === timeRuns && jest.getTimerCount() > 0) jest.advanceTimersToNextTimer();
		}
	};
	if (mode === 'auto') void drive();
	return {
		sleeps,
		now: () => Date.now(),
		async advance(ms: number) {
			await jest.advanceTimersByTimeAsync(ms);
			await flush();
		},
	};
}

/** The fake time now in use: an earlier one's driver stops. */
let timeRuns = 0;
afterEach(() => {
	timeRuns++;
	jest.useRealTimers();
	jest.restoreAllMocks();
});

export const flush = () => new Promise((resolve) => setImmediate(resolve));
