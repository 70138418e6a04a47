// Unit tests of the ERP node (this folder and transport/): fakes for n8n's context, HTTP helper and clock.
import type { IHttpRequestOptions, INode } from 'n8n-workflow';

import type { Clock } from '../../../nodes/Erp/transport/flowControl';
import type { RequestContext } from '../../../nodes/Erp/transport/client';
import type { RawResponse } from '../../../nodes/Erp/transport/types';

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
export function fakeContext(responder: Responder, credentials = { baseUrl: 'https://erp.test/api/v1', apiToken: TOKEN }) {
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

/** A clock whose sleeps return at once but move its time forward, recording each wait. */
export function fakeClock(): Clock & { sleeps: number[] } {
	let now = 1_700_000_000_000;
	const sleeps: number[] = [];
	return {
		sleeps,
		now: () => now,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		},
		random: () => 0.5,
	};
}

/** A clock that moves only when the test says so; sleeps end when their time has come. */
export function manualClock(): Clock & { advance(ms: number): Promise<void> } {
	let now = 0;
	let timers: Array<{ at: number; resolve: () => void }> = [];
	return {
		now: () => now,
		sleep: async (ms) => await new Promise<void>((resolve) => timers.push({ at: now + ms, resolve })),
		random: () => 0.5,
		async advance(ms) {
			now += ms;
			const due = timers.filter((timer) => timer.at <= now);
			timers = timers.filter((timer) => timer.at > now);
			for (const timer of due) timer.resolve();
			await flush();
		},
	};
}

export const flush = () => new Promise((resolve) => setImmediate(resolve));
