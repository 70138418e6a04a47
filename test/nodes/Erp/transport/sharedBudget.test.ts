import type { IHttpRequestOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/Erp/transport/client';
import type { Clock } from '../../../../nodes/Erp/transport/flowControl';
import { BudgetRegistry, budgetKey, IDLE_MS, SHARED_IN_FLIGHT } from '../../../../nodes/Erp/transport/sharedBudget';
import type { RawResponse } from '../../../../nodes/Erp/transport/types';
import { RateLimiter } from '../../../../sandbox/rateLimit';
import { fakeClock, fakeContext, flush, json, manualClock, TOKEN } from '../fakes';
import type { Responder } from '../fakes';

const ERP = { baseUrl: 'https://erp.test/api/v1', apiToken: TOKEN };
const read = (id: number) => ({ method: 'GET' as const, path: `/contacts/${id}`, doing: { action: `read contact ${id}`, noun: 'contact', id } });

/** One node run: a client of its own, on the clock and registry the test shares between runs, with n8n's cancel signal. */
async function run(responder: Responder, clock: Clock, budgets: BudgetRegistry, credentials = ERP, concurrency = 5) {
	const cancel = new AbortController();
	const { ctx, calls } = fakeContext(responder, credentials);
	Object.assign(ctx, { getExecutionCancelSignal: () => cancel.signal });
	const client = await ErpClient.create(ctx, { concurrency }, clock, budgets);
	return { client, calls, cancel };
}

/** Header names as n8n's HTTP client hands them over. */
const lowerCase = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

async function settled(promise: Promise<unknown>): Promise<boolean> {
	let done = false;
	void promise.then(
		() => (done = true),
		() => (done = true),
	);
	for (let i = 0; i < 5; i++) await flush();
	return done;
}

/** An answer held until the test releases it (or the run is cancelled, as n8n's HTTP client then rejects). */
function heldAnswers() {
	const releases: Array<() => void> = [];
	const responder = (options: IHttpRequestOptions & { cancelSignal?: AbortSignal }) =>
		new Promise<RawResponse>((resolve, reject) => {
			releases.push(() => resolve(json(200, { data: {} })));
			options.cancelSignal?.addEventListener('abort', () => reject(new Error('aborted')));
		});
	return { responder, releaseAll: () => releases.splice(0).forEach((release) => release()) };
}

describe('one budget per ERP in a process', () => {
	it('makes a run hold for the wait a 429 named to another run against the same ERP', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const first = await run((_o, call) => (call === 1 ? json(429, {}, { 'retry-after': '5' }) : json(200, { data: {} })), clock, budgets);
		const second = await run(() => json(200, { data: {} }), clock, budgets);
		const refused = first.client.request(read(1));
		await flush();
		const held = second.client.request(read(2));
		await clock.advance(4999);
		expect(second.calls).toHaveLength(0);
		await clock.advance(1);
		await Promise.all([refused, held]);
		expect(second.calls).toHaveLength(1);
		expect(first.calls).toHaveLength(2);
	});

	it('does not make a run against another ERP (another Base URL or another token) wait', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const first = await run(() => json(429, {}, { 'retry-after': '5' }), clock, budgets);
		const otherUrl = await run(() => json(200, { data: {} }), clock, budgets, { ...ERP, baseUrl: 'https://other.test/api/v1' });
		const otherToken = await run(() => json(200, { data: {} }), clock, budgets, { ...ERP, apiToken: 'tok_other' });
		void first.client.request(read(1)).catch(() => undefined);
		await flush();
		await Promise.all([otherUrl.client.request(read(2)), otherToken.client.request(read(3))]);
		expect([otherUrl.calls.length, otherToken.calls.length]).toEqual([1, 1]);
		first.cancel.abort();
	});

	it('lets a run that learnt the window is used up hold back the items of another run until the reset it names', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const resetInTwoSeconds = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' };
		const first = await run(() => json(200, { data: {} }, resetInTwoSeconds), clock, budgets);
		const second = await run(() => json(200, { data: {} }), clock, budgets);
		await first.client.admitted(() => first.client.request(read(1)));
		const held = second.client.admitted(() => second.client.request(read(2)));
		await clock.advance(1999);
		expect(second.calls).toHaveLength(0);
		await clock.advance(1);
		await held;
		expect(second.calls).toHaveLength(1);
	});

	it('lets one request ask when the reset is named as an epoch instant, which may be a second late: its 429 names the wait', async () => {
		const clock = fakeClock();
		const budgets = new BudgetRegistry(clock);
		const epochReset = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil((clock.now() + 2000) / 1000)) };
		const first = await run(() => json(200, { data: {} }, epochReset), clock, budgets);
		const second = await run(() => json(200, { data: {} }), clock, budgets);
		await first.client.admitted(() => first.client.request(read(1)));
		await second.client.admitted(() => second.client.request(read(2)));
		expect(second.calls).toHaveLength(1);
		expect(clock.sleeps).toEqual([]);
	});

	it('learns when a window ends and paces every run to it, not to the whole second its reset names: none is refused', async () => {
		const clock = manualClock();
		const second = 1_800_000_000_000;
		await clock.advance(second + 900);
		// The sandbox's window: it opens with its first request and names its reset in whole epoch seconds.
		const erp = new RateLimiter({ limit: 2, windowMs: 1000 });
		const sent: Array<{ at: number; allowed: boolean }> = [];
		const budgets = new BudgetRegistry(clock);
		const answer = () => {
			const { allowed, headers } = erp.hit('full', clock.now());
			sent.push({ at: clock.now() - second, allowed });
			return json(allowed ? 200 : 429, { data: {} }, lowerCase(headers));
		};
		const first = await run(answer, clock, budgets, ERP, 1);
		const other = await run(answer, clock, budgets, ERP, 1);
		/** Time goes on a millisecond at a time until the request is answered. */
		const answered = async (request: Promise<unknown>) => {
			let done = false;
			void request.then(() => (done = true));
			while (!done) await clock.advance(1);
		};
		// Window 1 opens at .900, named 2.000: at most 1.1 s, over 0.1 s: 1 s, the one whole second between. The
		// third request waits for 1.900 instead of asking to be refused.
		await first.client.request(read(1));
		await first.client.request(read(2));
		await answered(other.client.request(read(3)));
		for (let i = 4; i <= 12; i++) await answered((i % 2 ? first : other).client.request(read(i)));
		expect(sent.filter((request) => !request.allowed)).toEqual([]);
		// Each later window opens as the one before ends (within the 1 ms steps of this test's time), not at the
		// whole second its reset names, and is used in full.
		const windows: number[][] = [];
		for (const { at } of sent.filter((request) => request.allowed)) {
			const open = windows.at(-1);
			if (open && at < open[0] + 1000) open.push(at);
			else windows.push([at]);
		}
		expect(windows.map((window) => window.length)).toEqual([2, 2, 2, 2, 2, 2]);
		for (let i = 2; i < windows.length; i++) expect(windows[i][0] - windows[i - 1][0]).toBeLessThanOrEqual(1005);
	});

	it('two processes (no memory shared, as queue-mode workers) keep together under one limit from its headers', async () => {
		const clock = manualClock();
		const start = 1_800_000_000_000 + 300;
		await clock.advance(start);
		const erp = new RateLimiter({ limit: 20, windowMs: 1000 });
		const sent: Array<{ at: number; allowed: boolean }> = [];
		const answer = () => {
			const { allowed, headers } = erp.hit('full', clock.now());
			sent.push({ at: clock.now() - start, allowed });
			return json(allowed ? 200 : 429, { data: {} }, lowerCase(headers));
		};
		const end = start + 20_000;
		const worker = async () => {
			const { client } = await run(answer, clock, new BudgetRegistry(clock), ERP, 5);
			const lane = async () => {
				for (let i = 1; clock.now() < end; i++) await client.request(read(i));
			};
			await Promise.all([lane(), lane(), lane(), lane(), lane()]);
		};
		const done = Promise.all([worker(), worker()]);
		while (clock.now() < end + 2000) await clock.advance(1);
		await done;
		const refused = (from: number) => sent.filter(({ at, allowed }) => at >= from && !allowed).length;
		// 20 s at 20 a second: at most 420 can be answered (the window opens with its first request).
		expect(sent.length - refused(0)).toBeGreaterThan(0.9 * 400);
		// Answers arrive here the instant they are sent: fewer than 1 in 10 refused in all, 1 in 20 once learnt.
		expect(refused(0) / sent.length).toBeLessThan(0.1);
		expect(refused(5000) / sent.filter(({ at }) => at >= 5000).length).toBeLessThan(0.05);
	});

	it('still waits out the whole wait a 429 named when it ends after the learnt end of the window', async () => {
		const clock = manualClock();
		const second = 1_800_000_000_000;
		await clock.advance(second + 900);
		const erp = new RateLimiter({ limit: 2, windowMs: 1000 });
		const sent: number[] = [];
		const budgets = new BudgetRegistry(clock);
		const first = await run(
			() => {
				const { allowed, headers } = erp.hit('full', clock.now());
				sent.push(clock.now() - second);
				return json(allowed ? 200 : 429, { data: {} }, lowerCase(headers));
			},
			clock,
			budgets,
			ERP,
			1,
		);
		await first.client.request(read(1));
		await first.client.request(read(2));
		await clock.advance(1100);
		await first.client.request(read(3));
		// Another process spends the rest of window 2 (2.000 to 3.000): this run's request is refused at 2.500,
		// and the 429 names 1 s, past the window's end at 3.000.
		erp.hit('full', second + 2000);
		await clock.advance(500);
		const refused = first.client.request(read(4));
		await flush();
		await clock.advance(999);
		expect(sent).toEqual([900, 900, 2000, 2500]);
		await clock.advance(1);
		await refused;
		expect(sent).toEqual([900, 900, 2000, 2500, 3500]);
	});

	it('caps the requests on the wire to one ERP over all runs, and frees the slots of a run that ends', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const answers = heldAnswers();
		const busy = await run(answers.responder, clock, budgets, ERP, SHARED_IN_FLIGHT);
		const other = await run(() => json(200, { data: {} }), clock, budgets);
		const all = Promise.all(Array.from({ length: SHARED_IN_FLIGHT }, (_, i) => busy.client.request(read(i))));
		await flush();
		expect(busy.calls).toHaveLength(SHARED_IN_FLIGHT);
		const waiting = other.client.request(read(99));
		expect(await settled(waiting)).toBe(false);
		answers.releaseAll();
		await all;
		await waiting;
		expect(other.calls).toHaveLength(1);
	});

	it('frees the slots of a cancelled run, and ends the slot wait of a cancelled run at once', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const answers = heldAnswers();
		const busy = await run(
			// n8n's HTTP client rejects the requests on the wire when the execution is cancelled.
			(options) => answers.responder({ ...options, cancelSignal: busy.cancel.signal }),
			clock,
			budgets,
			ERP,
			SHARED_IN_FLIGHT,
		);
		const cancelledWaiter = await run(() => json(200, { data: {} }), clock, budgets);
		const other = await run(() => json(200, { data: {} }), clock, budgets);
		const onTheWire = Promise.allSettled(Array.from({ length: SHARED_IN_FLIGHT }, (_, i) => busy.client.request(read(i))));
		await flush();
		const gaveUp = cancelledWaiter.client.request(read(98)).catch((error: unknown) => error);
		const waiting = other.client.request(read(99));
		await flush();
		cancelledWaiter.cancel.abort();
		expect(await gaveUp).toBeInstanceOf(NodeOperationError);
		expect(cancelledWaiter.calls).toHaveLength(0);
		expect(await settled(waiting)).toBe(false);
		busy.cancel.abort();
		await onTheWire;
		await waiting;
		expect(other.calls).toHaveLength(1);
	});

	it('still caps each run at its own Concurrency', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		const answers = heldAnswers();
		const one = await run(answers.responder, clock, budgets, ERP, 2);
		const all = Promise.all([1, 2, 3, 4].map((id) => one.client.request(read(id))));
		await flush();
		expect(one.calls).toHaveLength(2);
		answers.releaseAll();
		await flush();
		answers.releaseAll();
		await all;
		expect(one.calls).toHaveLength(4);
	});

	it('drops the budget of an ERP nothing has used for a while, and keeps one in use', async () => {
		const clock = manualClock();
		const budgets = new BudgetRegistry(clock);
		budgets.budgetFor(budgetKey('https://a.test', 'x'));
		const busy = budgets.budgetFor(budgetKey('https://b.test', 'x'));
		const slot = busy.inFlight.run(() => new Promise<void>(() => undefined));
		await clock.advance(IDLE_MS);
		budgets.budgetFor(budgetKey('https://c.test', 'x'));
		expect(budgets.size()).toBe(2);
		expect(budgets.budgetFor(budgetKey('https://b.test', 'x'))).toBe(busy);
		void slot;
	});

	it('keys an ERP by its Base URL and a hash of the token, never the token itself', () => {
		const key = budgetKey(ERP.baseUrl, TOKEN);
		expect(key).not.toContain(TOKEN);
		expect(key).toContain(ERP.baseUrl);
		expect(budgetKey(ERP.baseUrl, 'tok_other')).not.toBe(key);
	});

	it.each([
		['a bare 429 (no header at all) paces every run after it', {}, true],
		['a 429 naming its wait (Retry-After) is waited out, and sets no pace', { 'retry-after': '1' }, false],
	] as const)('%s', async (_label, refusalHeaders, paced) => {
		const clock = fakeClock();
		const budgets = new BudgetRegistry(clock);
		const one = await run((_o, call) => (call === 31 ? json(429, {}, refusalHeaders) : json(200, { data: {} })), clock, budgets, ERP, 1);
		const other = await run(() => json(200, { data: {} }), clock, budgets, ERP, 1);
		for (let i = 0; i < 31; i++) await one.client.request(read(i));
		const sleptBefore = clock.sleeps.length;
		for (let i = 0; i < 10; i++) await other.client.request(read(100 + i));
		const paceWaits = clock.sleeps.slice(sleptBefore);
		// 30 answered within the last second: 0.85 × 30 = 25.5 a second, one request every 39 ms.
		if (paced) expect(paceWaits.length).toBeGreaterThanOrEqual(9);
		else expect(paceWaits).toEqual([]);
		for (const wait of paceWaits) expect(wait).toBeLessThanOrEqual(Math.ceil(1000 / 25.5));
	});

	it('adds no wait to a run against an ERP that sends no rate-limit headers', async () => {
		const clock = fakeClock();
		const budgets = new BudgetRegistry(clock);
		const one = await run(() => json(200, { data: {} }), clock, budgets, ERP, 10);
		await Promise.all(Array.from({ length: 200 }, (_, i) => one.client.admitted(() => one.client.request(read(i)))));
		expect(one.calls).toHaveLength(200);
		expect(clock.sleeps).toEqual([]);
	});
});
