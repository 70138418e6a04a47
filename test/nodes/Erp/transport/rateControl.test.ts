// The ERP's rate controller (nodes/shared/transport/rateControl.ts) through its interface: `admit` before a request,
// `learn` after it, and through ErpClient for what spans runs. Time is jest's fake time (../fakes).
import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import { retryAfterOf } from '../../../../nodes/shared/transport/errors';
import type { Ticket } from '../../../../nodes/shared/transport/rateControl';
import { erpKey, RateController, rateControllerFor, readRateHeaders, WaitTooLong } from '../../../../nodes/shared/transport/rateControl';
import type { RawResponse } from '../../../../nodes/shared/transport/types';
import { CONCURRENCY_LIMIT } from '../../../../nodes/shared/transport/types';
import { RateLimiter } from '../../../../sandbox/rateLimit';
import { fakeContext, fakeTime, flush, freshErp, json, TOKEN } from '../fakes';
import type { Responder } from '../fakes';
import { read, rejection, run as runWith } from './clientFor';

const SECOND = 1_800_000_000_000;
const ok = () => json(200, { data: {} });
/** One node run against `erp`, with Concurrency `concurrency`. */
const run = async (responder: Responder, erp = freshErp(), concurrency = 5) => await runWith(responder, { concurrency }, erp);

/** Whether the promise has settled once everything already queued has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(() => (done = true), () => (done = true));
	for (let i = 0; i < 5; i++) await flush();
	return done;
}
/** Moves manual fake time `stepMs` at a time until the promise has settled. */
async function advanceUntil(clock: ReturnType<typeof fakeTime>, promise: Promise<unknown>, stepMs = 1) {
	while (!(await settled(promise))) await clock.advance(stepMs);
	await promise;
}
/** A controller of its own, in manual fake time from `startMs`. */
const controller = (startMs = 0) => ({ clock: fakeTime('manual', startMs), rate: new RateController() });
const allSettled = async (promises: Array<Promise<unknown>>) => await Promise.all(promises.map(settled));
const admits = (rate: RateController, count: number, maxPauseMs = 0) => Array.from({ length: count }, () => rate.admit(maxPauseMs));

/** The controller learns an answer with these headers (as n8n hands them over: lower-case names). */
const learn = (rate: RateController, ticket: Ticket, statusCode: number, headers: Record<string, string> = {}) => rate.learn(ticket, { statusCode, limits: readRateHeaders(headers, Date.now()) });

/** An ERP answering from the sandbox's own fixed-window limiter, recording each request's arrival (ms after `start`). */
function limitedErp(limiter: RateLimiter, start: number) {
	const sent: Array<{ at: number; allowed: boolean }> = [];
	const answer = async () => {
		const { allowed, headers } = limiter.hit('full', Date.now());
		sent.push({ at: Date.now() - start, allowed });
		return json(allowed ? 200 : 429, { data: {} }, Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])));
	};
	const refused = (from = 0) => sent.filter(({ at, allowed }) => at >= from && !allowed).length;
	return { sent, answer, refused };
}

/** Lanes that each send one request after the other until `end`, time moved a millisecond at a time until `until`. */
async function lanes(clock: ReturnType<typeof fakeTime>, clients: Array<{ client: ErpClient; lanes: number; end: number }>, until: number) {
	const lane = async (client: ErpClient, end: number) => {
		for (let i = 1; Date.now() < end; i++) await client.request(read(i));
	};
	const done = Promise.all(clients.flatMap(({ client, lanes: count, end }) => Array.from({ length: count }, () => lane(client, end))));
	while (Date.now() < until) await clock.advance(1);
	await done;
}

/** The answered requests grouped into the windows the ERP opened (each opens with its first request). */
function windows(sent: Array<{ at: number; allowed: boolean }>, windowMs: number): number[][] {
	const opened: number[][] = [];
	for (const { at } of sent.filter((request) => request.allowed)) {
		const open = opened.at(-1);
		if (open && at < open[0] + windowMs) open.push(at);
		else opened.push([at]);
	}
	return opened;
}

describe('one rate controller per ERP, shared by every run in the process', () => {
	it.each([
		['the wait a 429 named to another run', (_o: unknown, call: number) => (call === 1 ? json(429, {}, { 'retry-after': '5' }) : ok()), 5000],
		['the reset a used-up window names in seconds from now, to another run', () => json(200, { data: {} }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' }), 2000],
	])('makes a run against the same ERP hold for %s', async (_what, answer, holdMs) => {
		const clock = fakeTime('manual', 0);
		const erp = freshErp();
		const [first, second] = [await run(answer, erp), await run(ok, erp)];
		const told = first.client.request(read(1));
		await flush();
		const held = second.client.request(read(2));
		await clock.advance(holdMs - 1);
		expect(second.calls).toHaveLength(0);
		await clock.advance(1);
		await Promise.all([told, held]);
		expect(second.calls).toHaveLength(1);
	});

	it('does not make a run against another ERP (another Base URL or another token) wait', async () => {
		fakeTime('manual', 0);
		const erp = freshErp();
		const first = await run(() => json(429, {}, { 'retry-after': '5' }), erp);
		const otherUrl = await run(ok, { ...erp, baseUrl: 'https://other.test/api/v1' });
		const otherToken = await run(ok, { ...erp, apiToken: 'tok_other' });
		void first.client.request(read(1)).catch(() => undefined);
		await flush();
		await Promise.all([otherUrl.client.request(read(2)), otherToken.client.request(read(3))]);
		expect([otherUrl.calls.length, otherToken.calls.length]).toEqual([1, 1]);
		first.cancel.abort();
	});

	it('drops the controller of an ERP nothing has used for a minute, keeps one in use, and keys an ERP by its Base URL and a hash of the token', async () => {
		const clock = fakeTime('manual', 0);
		const idle = rateControllerFor(erpKey('https://a.test', 'x'));
		const busy = rateControllerFor(erpKey('https://b.test', 'x'));
		await busy.admit(0);
		await clock.advance(60_000);
		rateControllerFor(erpKey('https://c.test', 'x'));
		expect(rateControllerFor(erpKey('https://b.test', 'x'))).toBe(busy);
		expect(rateControllerFor(erpKey('https://a.test', 'x'))).not.toBe(idle);
		const key = erpKey('https://erp.test/api/v1', TOKEN);
		expect([key.includes(TOKEN), key.startsWith('https://erp.test/api/v1 '), erpKey('https://erp.test/api/v1', 'tok_other') === key]).toEqual([false, true, false]);
	});
});

describe('a window the ERP counts (X-RateLimit-Remaining)', () => {
	it('lets requests go while more are left than are on the wire; once used up, one alone when none is on the wire', async () => {
		const { rate } = controller();
		learn(rate, await rate.admit(0), 200, { 'x-ratelimit-remaining': '3' });
		expect(await allSettled(admits(rate, 4))).toEqual([true, true, true, false]);
		const used = new RateController();
		const [first, second] = [await used.admit(0), await used.admit(0)];
		learn(used, first, 200, { 'x-ratelimit-remaining': '0' });
		const [third, fourth] = admits(used, 2);
		expect(await settled(third)).toBe(false);
		learn(used, second, 200);
		expect([await settled(third), await settled(fourth)]).toEqual([true, false]);
	});

	it('lets the held requests go once a 429 named the wait, when it is over', async () => {
		const { clock, rate } = controller();
		const asking = await rate.admit(0);
		learn(rate, await rate.admit(0), 200, { 'x-ratelimit-remaining': '0' });
		const held = admits(rate, 2, 10_000);
		expect(await allSettled(held)).toEqual([false, false]);
		learn(rate, asking, 429, { 'x-ratelimit-remaining': '0', 'retry-after': '1' });
		await clock.advance(999);
		expect(await allSettled(held)).toEqual([false, false]);
		await clock.advance(1);
		expect(await allSettled(held)).toEqual([true, true]);
	});

	it('keeps to the lowest count of a window when answers overtake each other, and ignores answers of a window already over', async () => {
		const { rate } = controller(SECOND);
		const reset = (s: number) => String(SECOND / 1000 + s);
		const tickets = await Promise.all(admits(rate, 4));
		learn(rate, tickets[0], 200, { 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': reset(2) });
		learn(rate, tickets[1], 200, { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': reset(2) });
		const waiting = rate.admit(0);
		expect(await settled(waiting)).toBe(false);
		learn(rate, tickets[2], 200, { 'x-ratelimit-remaining': '9', 'x-ratelimit-reset': reset(1) });
		expect(await settled(waiting)).toBe(false);
		learn(rate, tickets[3], 200, { 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': reset(3) });
		expect(await settled(waiting)).toBe(true);
	});

	it('forgets the count once its window is over (a second past the reset it named): an ERP that then shows no limit is not held back', async () => {
		const { clock, rate } = controller(SECOND);
		learn(rate, await rate.admit(0), 200, { 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': String(SECOND / 1000 + 1) });
		const onTheWire = [await rate.admit(0), await rate.admit(0)];
		const held = rate.admit(0);
		await clock.advance(2000);
		expect(await settled(held)).toBe(false);
		await clock.advance(1000);
		expect(await settled(held)).toBe(true);
		learn(rate, onTheWire[0], 200);
		expect(await allSettled(admits(rate, 20))).toEqual(Array(20).fill(true));
	});

	it('forgets a count that named no end of its window once a minute has gone by without another', async () => {
		const { clock, rate } = controller();
		learn(rate, await rate.admit(0), 200, { 'x-ratelimit-remaining': '1' });
		await rate.admit(0);
		const held = rate.admit(0);
		await clock.advance(60_000);
		expect(await settled(held)).toBe(false);
		await clock.advance(1000);
		expect(await settled(held)).toBe(true);
	});

	it('does not take an answer that arrives during a 429 wait for news about the next window', async () => {
		const { clock, rate } = controller();
		const [a, b] = [await rate.admit(0), await rate.admit(0)];
		learn(rate, a, 429, { 'x-ratelimit-remaining': '0', 'retry-after': '1' });
		// b was sent before the wait; its answer belongs to the refused window.
		learn(rate, b, 200, { 'x-ratelimit-remaining': '0' });
		const next = admits(rate, 2, 10_000);
		await clock.advance(1000);
		expect(await allSettled(next)).toEqual([true, true]);
	});

	it('sends a burst that fits the window at once, with no pace, and adds no wait for an ERP that sends no rate-limit headers', async () => {
		const { sleeps } = fakeTime('auto');
		const counted = await run((_o, call) => json(200, { data: {} }, { 'x-ratelimit-remaining': String(50 - call), 'x-ratelimit-limit': '50' }), freshErp(), 10);
		await Promise.all(Array.from({ length: 40 }, (_, i) => counted.client.request(read(i))));
		const silent = await run(ok, freshErp(), 10);
		await Promise.all(Array.from({ length: 200 }, (_, i) => silent.client.request(read(i))));
		expect([counted.calls.length, silent.calls.length, sleeps]).toEqual([40, 200, []]);
	});

	it('lets one request ask when the reset is named as an epoch instant, which may be a second late: its 429 names the wait', async () => {
		const { sleeps } = fakeTime('auto');
		const erp = freshErp();
		const first = await run(() => json(200, { data: {} }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil((Date.now() + 2000) / 1000)) }), erp);
		const second = await run(ok, erp);
		await first.client.request(read(1));
		await second.client.request(read(2));
		expect([second.calls.length, sleeps]).toEqual([1, []]);
	});

	it('learns when a window ends and paces every run to it, not to the whole second its reset names: none is refused', async () => {
		const clock = fakeTime('manual', SECOND + 900);
		// The sandbox's window: it opens with its first request and names its reset in whole epoch seconds.
		const erp = limitedErp(new RateLimiter({ limit: 2, windowMs: 1000 }), SECOND);
		const credentials = freshErp();
		const [first, other] = [await run(erp.answer, credentials, 1), await run(erp.answer, credentials, 1)];
		const answered = async (request: Promise<unknown>) => await advanceUntil(clock, request);
		// Window 1 opens at .900, named 2.000: at most 1.1 s, over 0.1 s: 1 s, the one whole second between. The
		// third request waits for 1.900 instead of asking to be refused.
		await first.client.request(read(1));
		await first.client.request(read(2));
		await answered(other.client.request(read(3)));
		for (let i = 4; i <= 12; i++) await answered((i % 2 ? first : other).client.request(read(i)));
		expect(erp.refused()).toBe(0);
		// Each later window opens as the one before ends, not at the whole second its reset names, and is used in full.
		const opened = windows(erp.sent, 1000);
		expect(opened.map((window) => window.length)).toEqual([2, 2, 2, 2, 2, 2]);
		for (let i = 2; i < opened.length; i++) expect(opened[i][0] - opened[i - 1][0]).toBeLessThanOrEqual(1005);
	});

	it('still waits out the whole wait a 429 named when it ends after the learnt end of the window', async () => {
		const clock = fakeTime('manual', SECOND + 900);
		const limiter = new RateLimiter({ limit: 2, windowMs: 1000 });
		const erp = limitedErp(limiter, SECOND);
		const first = await run(erp.answer, freshErp(), 1);
		await first.client.request(read(1));
		await first.client.request(read(2));
		await clock.advance(1100);
		await first.client.request(read(3));
		// Another process spends the rest of window 2 (2.000 to 3.000): this run's request is refused at 2.500,
		// and the 429 names 1 s, past the window's end at 3.000.
		limiter.hit('full', SECOND + 2000);
		await clock.advance(500);
		const refused = first.client.request(read(4));
		await flush();
		await clock.advance(999);
		expect(erp.sent.map((request) => request.at)).toEqual([900, 900, 2000, 2500]);
		await clock.advance(1);
		await refused;
		expect(erp.sent.map((request) => request.at)).toEqual([900, 900, 2000, 2500, 3500]);
	});

	it('two processes (no memory shared, as queue-mode workers) keep together under one limit from its headers', async () => {
		const start = SECOND + 300;
		const clock = fakeTime('manual', start);
		const erp = limitedErp(new RateLimiter({ limit: 20, windowMs: 1000 }), start);
		// Two controllers, one per process (an ERP of its own here): both spend one limit.
		const worker = async () => ({ client: (await run(erp.answer, freshErp(), 5)).client, lanes: 5, end: start + 20_000 });
		await lanes(clock, [await worker(), await worker()], start + 22_000);
		// 20 s at 20 a second: at most 420 can be answered (the window opens with its first request). Answers arrive here
		// the instant they are sent: fewer than 1 in 10 refused in all, 1 in 20 once learnt.
		expect(erp.sent.length - erp.refused()).toBeGreaterThan(0.9 * 400);
		expect(erp.refused() / erp.sent.length).toBeLessThan(0.1);
		expect(erp.refused(5000) / erp.sent.filter(({ at }) => at >= 5000).length).toBeLessThan(0.05);
	});

	it('falls back from the whole second to the bounds it learnt for a window of 1.5 s: a refusal or two, then none', async () => {
		const start = SECOND + 300;
		const clock = fakeTime('manual', start);
		const erp = limitedErp(new RateLimiter({ limit: 6, windowMs: 1500 }), start);
		await lanes(clock, [{ client: (await run(erp.answer, freshErp(), 5)).client, lanes: 5, end: start + 15_000 }], start + 18_000);
		expect([erp.refused(5000), erp.refused() <= 3]).toEqual([0, true]);
		// 10 windows of 1.5 s in 15 s, 6 requests each: most of the limit was used.
		expect(erp.sent.length - erp.refused()).toBeGreaterThan(0.8 * 60);
	});
});

describe('a pace learnt from refusals (an ERP that shows no count)', () => {
	it.each([
		['a bare 429 (no header at all) paces', {}, true],
		['a 429 that names its wait (Retry-After) and no count paces', { 'retry-after': '1' }, true],
		['a 429 of an ERP that counts its window sets no pace: the count paces', { 'retry-after': '1', 'x-ratelimit-remaining': '0' }, false],
	] as const)('%s every run after it', async (_label, refusalHeaders, paced) => {
		const { sleeps } = fakeTime('auto');
		const erp = freshErp();
		const one = await run((_o, call) => (call === 31 ? json(429, {}, refusalHeaders) : ok()), erp, 1);
		const other = await run(ok, erp, 1);
		for (let i = 0; i < 31; i++) await one.client.request(read(i));
		const sleptBefore = sleeps.length;
		for (let i = 0; i < 10; i++) await other.client.request(read(100 + i));
		const paceWaits = sleeps.slice(sleptBefore);
		// 30 answered within the last second: 0.85 × 30 = 25.5 a second, one request every 39 ms.
		expect(paceWaits.length).toBeGreaterThanOrEqual(paced ? 9 : 0);
		if (!paced) expect(paceWaits).toEqual([]);
		for (const wait of paceWaits) expect(wait).toBeLessThanOrEqual(Math.ceil(1000 / 25.5));
	});

	async function answered50(rate: RateController, clock: ReturnType<typeof fakeTime>) {
		for (let i = 0; i < 50; i++) {
			learn(rate, await rate.admit(0), 200);
			await clock.advance(10);
		}
	}
	/** A controller that answered 50 requests 10 ms apart, then a refusal: paced at 0.85 × 50 = 42.5 a second. */
	async function pacedAt42(clock: ReturnType<typeof fakeTime>, refusalHeaders: Record<string, string> = {}) {
		const rate = new RateController();
		await answered50(rate, clock);
		learn(rate, await rate.admit(0), 429, refusalHeaders);
		return rate;
	}

	/** A request admitted, time moving a millisecond at a time until it is. */
	async function admitted(rate: RateController, clock: ReturnType<typeof fakeTime>): Promise<Ticket> {
		const admission = rate.admit(60_000);
		await advanceUntil(clock, admission);
		return await admission;
	}

	/** When each of `count` requests is admitted, answering each at once. */
	async function admitTimes(rate: RateController, clock: ReturnType<typeof fakeTime>, count: number): Promise<number[]> {
		const times: number[] = [];
		for (let i = 0; i < count; i++) {
			const ticket = await admitted(rate, clock);
			times.push(ticket.sentAt);
			learn(rate, ticket, 200);
		}
		return times;
	}
	const gap = async (rate: RateController, clock: ReturnType<typeof fakeTime>) => {
		const [a, b] = await admitTimes(rate, clock, 2);
		return b - a;
	};

	it('on the first refusal holds all for a second, then paces just under what was answered in the last second', async () => {
		const clock = fakeTime('manual', 0);
		const rate = await pacedAt42(clock);
		const cutAt = Date.now();
		const times = await admitTimes(rate, clock, 20);
		expect(times[0] - cutAt).toBe(1000);
		// 42.5 a second (and a little more as it grows): 23 or 24 ms apart, in 1 ms steps of time.
		for (const at of times.slice(1).map((next, i) => next - times[i])) expect(at >= 22 && at <= 25).toBe(true);
	});

	it('takes refusals of requests sent before its last cut, or within a second of it, for the echo of the same one', async () => {
		const { clock, rate } = controller();
		await answered50(rate, clock);
		const sentBeforeTheCut = await rate.admit(0);
		await clock.advance(5);
		learn(rate, await rate.admit(0), 429);
		await clock.advance(1000);
		const paced = await gap(rate, clock);
		learn(rate, sentBeforeTheCut, 429);
		expect(await gap(rate, clock)).toBeLessThanOrEqual(paced + 1);
		await clock.advance(1000);
		learn(rate, await admitted(rate, clock), 429);
		const cut = await gap(rate, clock);
		expect(cut).toBeGreaterThanOrEqual(Math.floor(paced / 0.85));
		await clock.advance(500);
		learn(rate, await admitted(rate, clock), 429);
		expect(await gap(rate, clock)).toBeLessThanOrEqual(cut + 1);
	});

	it('recovers while none is refused: about 2 a second more in the first second, faster the longer none comes', async () => {
		const clock = fakeTime('manual', 0);
		const rate = await pacedAt42(clock);
		await clock.advance(1000);
		const start = Date.now();
		const times = await admitTimes(rate, clock, 400);
		const inSecond = (n: number) => times.filter((at) => at >= start + n * 1000 && at < start + (n + 1) * 1000).length;
		// 42.5 a second to start with; 2 + 4 + 6 + 8 + 10 a second more over five seconds, about.
		expect(inSecond(0) >= 42 && inSecond(0) <= 46).toBe(true);
		expect(inSecond(4)).toBeGreaterThan(42.5 + 18);
	});

	it('does not grow while the requests come slower than the pace', async () => {
		const clock = fakeTime('manual', 0);
		const rate = await pacedAt42(clock);
		for (let i = 0; i < 20; i++) {
			await clock.advance(1000);
			learn(rate, await rate.admit(0), 200);
		}
		expect(await gap(rate, clock)).toBeGreaterThanOrEqual(23);
	});

	it('sets no pace from a refusal with nothing answered before it', async () => {
		const { clock, rate } = controller();
		learn(rate, await rate.admit(0), 429);
		await clock.advance(1000);
		expect(await allSettled(admits(rate, 10))).toEqual(Array(10).fill(true));
	});

	it('once paced, does not hold all for a named wait of a second: the pace is cut; a longer wait holds all but its last second', async () => {
		const clock = fakeTime('manual', 0);
		const rate = await pacedAt42(clock, { 'retry-after': '1' });
		await clock.advance(1000);
		const paced = await admitTimes(rate, clock, 3);
		await clock.advance(1000);
		learn(rate, await admitted(rate, clock), 429, { 'retry-after': '1' });
		const [next] = await admitTimes(rate, clock, 1);
		expect(next - Date.now()).toBeLessThanOrEqual(0);
		expect(next - paced[2]).toBeLessThan(1100);
		await clock.advance(1000);
		learn(rate, await admitted(rate, clock), 429, { 'retry-after': '5' });
		const refusedAt = Date.now();
		const [after] = await admitTimes(rate, clock, 1);
		expect(after - refusedAt).toBe(4000);
	});
});

describe('requests on the wire: the ERP cap over all runs, and each run its Concurrency', () => {
	/** An answer held until the test releases it (or the run is cancelled, as n8n's HTTP client then rejects). */
	function heldAnswers() {
		const releases: Array<() => void> = [];
		const responder = (options: IHttpRequestOptions & { cancelSignal?: AbortSignal }) =>
			new Promise<RawResponse>((resolve, reject) => {
				releases.push(() => resolve(ok()));
				options.cancelSignal?.addEventListener('abort', () => reject(new Error('aborted')));
			});
		return { responder, releaseAll: () => releases.splice(0).forEach((release) => release()) };
	}

	it('caps the requests on the wire to one ERP over all runs; frees the slots of a run that ends or is cancelled, and ends a cancelled waiter at once', async () => {
		fakeTime('manual', 0);
		const erp = freshErp();
		const answers = heldAnswers();
		const ending = await run(answers.responder, erp, CONCURRENCY_LIMIT);
		// n8n's HTTP client rejects the requests on the wire when the execution is cancelled.
		const cancelled = await run((options) => answers.responder({ ...options, cancelSignal: cancelled.cancel.signal }), erp, CONCURRENCY_LIMIT);
		const [waiter, other] = [await run(ok, erp), await run(ok, erp)];
		const all = Promise.all(Array.from({ length: CONCURRENCY_LIMIT }, (_, i) => ending.client.request(read(i))));
		await flush();
		expect(ending.calls).toHaveLength(CONCURRENCY_LIMIT);
		const waiting = other.client.request(read(99));
		const gaveUp = rejection(waiter.client.request(read(98)));
		expect(await settled(waiting)).toBe(false);
		waiter.cancel.abort();
		expect(await gaveUp).toBeInstanceOf(NodeOperationError);
		answers.releaseAll();
		await all;
		await waiting;
		expect([waiter.calls.length, other.calls.length]).toEqual([0, 1]);
		const onTheWire = Promise.allSettled(Array.from({ length: CONCURRENCY_LIMIT }, (_, i) => cancelled.client.request(read(i))));
		await flush();
		const next = other.client.request(read(100));
		expect(await settled(next)).toBe(false);
		cancelled.cancel.abort();
		await onTheWire;
		await next;
		expect(other.calls).toHaveLength(2);
	});

	it('still caps each run at its own Concurrency, in the order the requests came', async () => {
		fakeTime('manual', 0);
		const answers = heldAnswers();
		const one = await run(answers.responder, freshErp(), 2);
		const all = Promise.all([1, 2, 3, 4].map((id) => one.client.request(read(id))));
		const sent = () => one.calls.map((call) => call.url?.split('/').pop());
		await flush();
		expect(sent()).toEqual(['1', '2']);
		answers.releaseAll();
		await flush();
		expect(sent()).toEqual(['1', '2', '3', '4']);
		const later = one.client.request(read(5));
		await flush();
		expect(sent()).toHaveLength(4);
		answers.releaseAll();
		await all;
		await flush();
		answers.releaseAll();
		await later;
	});
});

// Retry-After as an HTTP date, in any zone: test/nodes/dayEdges.test.ts.
describe('readRateHeaders (the document names no rate-limit headers: the common ones)', () => {
	const now = Date.parse('2026-11-22T10:00:00Z');
	it.each<[string, Record<string, string | string[]>, object | undefined]>([
		['Retry-After in seconds', { 'retry-after': '3' }, { ms: 3000 }],
		['Retry-After in fractions of a second', { 'retry-after': '0.25' }, { ms: 250 }],
		['X-RateLimit-Reset as epoch seconds: the instant too', { 'x-ratelimit-reset': String(now / 1000 + 4) }, { ms: 4000, atMs: now + 4000 }],
		['X-RateLimit-Reset as seconds from now', { 'x-ratelimit-reset': '2' }, { ms: 2000 }],
		["the IETF draft's RateLimit-Reset, seconds from now", { 'ratelimit-reset': '9' }, { ms: 9000 }],
		['X-RateLimit-Reset before RateLimit-Reset', { 'x-ratelimit-reset': '2', 'ratelimit-reset': '9' }, { ms: 2000 }],
		['Retry-After before either reset', { 'retry-after': '1', 'x-ratelimit-reset': '2', 'ratelimit-reset': '9' }, { ms: 1000 }],
		['none', {}, undefined],
		['meaningless values', { 'retry-after': 'soon', 'ratelimit-reset': 'later' }, undefined],
	])('the wait from %s', (_what, headers, wait) => {
		expect(readRateHeaders(headers, now).wait).toEqual(wait);
	});

	it('reads X-RateLimit-Remaining and -Limit, or the IETF draft names, and ignores a meaningless value', () => {
		expect(readRateHeaders({ 'x-ratelimit-remaining': '7', 'x-ratelimit-limit': '50' }, now)).toMatchObject({ remaining: 7, limit: 50 });
		expect(readRateHeaders({ 'ratelimit-remaining': ' 0 ', 'ratelimit-limit': '20' }, now)).toMatchObject({ remaining: 0, limit: 20 });
		expect(readRateHeaders({ 'x-ratelimit-remaining': ['3', '9'] }, now).remaining).toBe(3);
		for (const value of ['many', '-1', '']) expect(readRateHeaders({ 'x-ratelimit-remaining': value }, now).remaining).toBeUndefined();
	});
});

describe("a burst with a deadline (the ERP Trigger's read-back)", () => {
	it('refuses at once the requests of a burst whose turn comes after their deadline, naming the wait the turns before them take', async () => {
		const start = SECOND + 300;
		const clock = fakeTime('manual', start);
		const limiter = new RateLimiter({ limit: 10, windowMs: 1000 });
		const erp = limitedErp(limiter, start);
		const credentials = freshErp();
		const outcomes: Array<{ arrived: number; ended: number; retryAfterMs?: number; message?: string; httpCode?: string | null; ok: boolean }> = [];
		// 60 reads, a tenth of a second apart after the first ten, each with 3 s to go; the ERP allows 10 a second.
		const readInvoice = async (i: number) => {
			const arrived = Date.now() - start;
			const { ctx } = fakeContext(erp.answer, credentials);
			const client = await ErpClient.create(ctx, { concurrency: 1, deadlineAt: Date.now() + 3000 });
			try {
				await client.request({ ...read(i, 'invoice'), expect: 'record' });
				outcomes.push({ arrived, ended: Date.now() - start, ok: true });
			} catch (error) {
				outcomes.push({ arrived, ended: Date.now() - start, ok: false, retryAfterMs: retryAfterOf(error), message: (error as Error).message, httpCode: (error as { httpCode?: string | null }).httpCode });
			}
		};
		const all: Array<Promise<void>> = [];
		for (let i = 0; i < 60; i++) {
			all.push(readInvoice(i));
			if (i >= 10) await clock.advance(10);
		}
		await advanceUntil(clock, Promise.all(all), 5);

		const answered = outcomes.filter((o) => o.ok);
		const refused = outcomes.filter((o) => !o.ok);
		// Each request the ERP allowed was answered, each answered one went before its deadline, and the pace filled the time.
		expect(erp.sent.filter(({ allowed }) => allowed)).toHaveLength(answered.length);
		for (const o of answered) expect(o.ended - o.arrived).toBeLessThanOrEqual(3000);
		expect(answered.length).toBeGreaterThanOrEqual(25);
		expect(refused.length).toBeGreaterThan(0);
		for (const o of refused) {
			// Once the pace is known (the first window used up), not at the deadline 3 s after it came; with a wait longer
			// than the deadline left, growing with its place.
			expect(o.ended - o.arrived).toBeLessThan(1000);
			expect(o.retryAfterMs).toBeGreaterThanOrEqual(3000 - (o.ended - o.arrived));
			// The ERP refused nothing: the error says it is the turns, not a 429.
			expect(o.message).toMatch(/^The ERP's rate limit leaves this request no turn before \d+(\.\d+)? s from now$/);
			expect(o.httpCode ?? undefined).toBeUndefined();
		}
		const waits = refused.map((o) => o.retryAfterMs ?? 0);
		expect(waits.at(-1)).toBeGreaterThan(waits[0]);
	}, 60_000);

	it('does not send a request that waited for room past its deadline (woken late, it would have no time for an answer)', async () => {
		const { clock, rate } = controller();
		const [first, second] = [await rate.admit(0), await rate.admit(0)];
		learn(rate, first, 200, { 'x-ratelimit-remaining': '1' });
		// One left in the window, one on the wire: no room until an answer comes, which comes after the deadline.
		let outcome: unknown;
		rate.admit(0, undefined, 500).then(() => (outcome = 'sent'), (error: unknown) => (outcome = error));
		await clock.advance(600);
		expect(outcome).toBeUndefined();
		learn(rate, second, 200, { 'x-ratelimit-remaining': '1' });
		await flush();
		expect(outcome).toBeInstanceOf(WaitTooLong);
		expect((outcome as WaitTooLong).named).toBe(false);
	});
});
