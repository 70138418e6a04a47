import type { IHttpRequestOptions } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/Erp/transport/client';
import { BackOffGate, InFlightLimit, RateWindow, systemClock } from '../../../../nodes/Erp/transport/flowControl';
import type { RawResponse } from '../../../../nodes/Erp/transport/types';
import { flush, fakeContext, json, manualClock } from '../fakes';

/** Whether the promise has settled once everything already queued has run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
	let settled = false;
	void promise.then(() => (settled = true));
	await new Promise((resolve) => setImmediate(resolve));
	return settled;
}

describe('RateWindow', () => {
	it('lets every item start while the ERP says nothing about its window', async () => {
		const window = new RateWindow();
		const starts = Array.from({ length: 20 }, () => window.admit());
		expect(await Promise.all(starts.map(isSettled))).toEqual(Array(20).fill(true));
	});

	it('lets items start while more requests are left than items run', async () => {
		const window = new RateWindow();
		window.observe(3);
		const starts = [window.admit(), window.admit(), window.admit(), window.admit()];
		expect(await Promise.all(starts.map(isSettled))).toEqual([true, true, true, false]);
	});

	it('once the window is used up, starts one item alone when none runs any more', async () => {
		const window = new RateWindow();
		const first = await window.admit();
		const second = await window.admit();
		window.observe(0);
		const third = window.admit();
		const fourth = window.admit();
		first();
		expect(await isSettled(third)).toBe(false);
		second();
		expect(await isSettled(third)).toBe(true);
		expect(await isSettled(fourth)).toBe(false);
	});

	it('lets the waiting items start when a 429 has named the wait: they get ready meanwhile', async () => {
		const window = new RateWindow();
		await window.admit();
		window.observe(0);
		const waiting = [window.admit(), window.admit()];
		expect(await Promise.all(waiting.map(isSettled))).toEqual([false, false]);
		window.expectNewWindow();
		expect(await Promise.all(waiting.map(isSettled))).toEqual([true, true]);
	});

	it('keeps to the lowest count of a window when answers overtake each other, and ignores answers of a window already over', async () => {
		const window = new RateWindow();
		await window.admit();
		window.observe(1, 2000);
		window.observe(3, 2000);
		expect(await isSettled(window.admit())).toBe(false);
		window.observe(9, 1000);
		expect(await isSettled(window.admit())).toBe(false);
		window.observe(49, 3000);
		expect(await isSettled(window.admit())).toBe(true);
	});

	it('counts an item as done once, however often it says so', async () => {
		const window = new RateWindow();
		const first = await window.admit();
		await window.admit();
		window.observe(1);
		first();
		first();
		expect(await isSettled(window.admit())).toBe(false);
	});
});

describe('InFlightLimit', () => {
	it('never runs more than its limit at once, starts the waiting ones in order, and runs them all', async () => {
		const limit = new InFlightLimit(3);
		let open = 0;
		let mostOpen = 0;
		const started: number[] = [];
		const results = await Promise.all(
			Array.from({ length: 10 }, (_, n) =>
				limit.run(async () => {
					started.push(n);
					open++;
					mostOpen = Math.max(mostOpen, open);
					for (let t = 0; t < 1 + (n % 3); t++) await flush();
					open--;
					return n * 2;
				}),
			),
		);
		expect(results).toEqual(Array.from({ length: 10 }, (_, n) => n * 2));
		expect(mostOpen).toBe(3);
		expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
	});

	it('gives the slot back when the work fails', async () => {
		const limit = new InFlightLimit(1);
		await expect(limit.run(async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
		await expect(limit.run(async () => 'next')).resolves.toBe('next');
	});
});

describe('BackOffGate', () => {
	it('holds until the latest moment any 429 named, and says how long is left', async () => {
		const clock = manualClock();
		const gate = new BackOffGate(clock);
		expect([gate.holding(), gate.waitLeft()]).toEqual([false, 0]);
		gate.holdUntil(5000);
		gate.holdUntil(3000);
		await clock.advance(1000);
		expect([gate.holding(), gate.waitLeft()]).toEqual([true, 4000]);
		await clock.advance(4000);
		expect([gate.holding(), gate.waitLeft()]).toEqual([false, 0]);
	});
});

describe('systemClock', () => {
	it("ends a wait at once when n8n's cancel signal fires", async () => {
		const cancel = new AbortController();
		const wait = systemClock(cancel.signal).sleep(3_600_000);
		cancel.abort();
		await expect(wait).rejects.toThrow();
	});
});

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
			await client.request({ method: 'POST', path: '/contacts', doing: { action: 'create the contact', noun: 'contact' }, body: { name } });
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
