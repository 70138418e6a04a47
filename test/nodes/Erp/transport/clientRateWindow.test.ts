import type { IHttpRequestOptions } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/Erp/transport/client';
import type { RawResponse } from '../../../../nodes/Erp/transport/types';
import { flush, fakeContext, json, manualClock } from '../fakes';

/** Answers each request when the test says so, in the order they were sent. */
function heldAnswers() {
	const pending: Array<{ name: string; answer: (response: RawResponse) => void }> = [];
	const responder = (options: IHttpRequestOptions) =>
		new Promise<RawResponse>((answer) => pending.push({ name: String((options.body as { name: string }).name), answer }));
	return { pending, responder };
}

const ok = (remaining: number) => json(201, { data: { id: 1 } }, { 'x-ratelimit-remaining': String(remaining) });
const refused = () => json(429, {}, { 'retry-after': '1', 'x-ratelimit-remaining': '0' });

async function setup() {
	const { pending, responder } = heldAnswers();
	const { ctx } = fakeContext(responder);
	const clock = manualClock();
	// Items side by side, as the node runs them with Concurrency 10.
	const client = await ErpClient.create(ctx, { concurrency: 10 }, clock);
	const started: string[] = [];
	const item = (name: string) =>
		client.admitted(async () => {
			started.push(name);
			await client.request({ method: 'POST', path: '/contacts', body: { name } });
		});
	return { pending, clock, started, item };
}

describe('ErpClient and the rate-limit window', () => {
	it('once the ERP says the window is used up, starts no new item until one request has learnt the wait', async () => {
		const { pending, clock, started, item } = await setup();
		const a = item('a');
		const b = item('b');
		await flush();
		pending.shift()?.answer(ok(1));
		pending.shift()?.answer(ok(0));
		await Promise.all([a, b]);

		const c = item('c');
		const d = item('d');
		await flush();
		expect(started).toEqual(['a', 'b', 'c']);
		expect(pending.map((request) => request.name)).toEqual(['c']);

		pending.shift()?.answer(refused());
		await flush();
		// The wait is known: d gets ready now, and both go when it is over.
		expect(started).toEqual(['a', 'b', 'c', 'd']);
		expect(pending).toEqual([]);
		await clock.advance(1000);
		expect(pending.map((request) => request.name).sort()).toEqual(['c', 'd']);
		for (const request of pending.splice(0)) request.answer(ok(40));
		await Promise.all([c, d]);
	});

	it('does not take an answer that arrives during a 429 wait as news about the next window', async () => {
		const { pending, clock, started, item } = await setup();
		const a = item('a');
		const b = item('b');
		await flush();
		pending.shift()?.answer(refused());
		await flush();
		// b was sent before the wait; its answer belongs to the refused window.
		pending.shift()?.answer(ok(0));
		await b;
		const c = item('c');
		await flush();
		expect(started).toEqual(['a', 'b', 'c']);
		await clock.advance(1000);
		for (const request of pending.splice(0)) request.answer(ok(40));
		await Promise.all([a, c]);
	});

	it('starts items freely when the ERP sends no rate-limit headers', async () => {
		const { pending, started, item } = await setup();
		const items = ['a', 'b', 'c', 'd'].map(item);
		await flush();
		expect(started).toEqual(['a', 'b', 'c', 'd']);
		for (const request of pending.splice(0)) request.answer(json(201, { data: { id: 1 } }));
		await Promise.all(items);
	});
});
