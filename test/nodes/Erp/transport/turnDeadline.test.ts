// The ERP's rate controller under a burst with a deadline (the ERP Trigger's read-back): requests whose turn of the
// pace cannot come before their deadline are refused at once, with the wait the turns before them take. Jest's fake
// time (../fakes), the sandbox's own fixed-window limiter as the ERP.
import { ErpClient } from '../../../../nodes/shared/transport/client';
import { retryAfterOf } from '../../../../nodes/shared/transport/errors';
import { RateController, readRateHeaders, WaitTooLong } from '../../../../nodes/shared/transport/rateControl';
import { RateLimiter } from '../../../../sandbox/rateLimit';
import { fakeContext, fakeTime, flush, freshErp, json } from '../fakes';

const SECOND = 1_800_000_000_000;

it('refuses at once the requests of a burst whose turn comes after their deadline, naming the wait the turns before them take', async () => {
	const start = SECOND + 300;
	const clock = fakeTime('manual', start);
	const limiter = new RateLimiter({ limit: 10, windowMs: 1000 });
	const sent: number[] = [];
	const erp = freshErp();
	const responder = () => {
		const { allowed, headers } = limiter.hit('full', Date.now());
		if (allowed) sent.push(Date.now() - start);
		return json(allowed ? 200 : 429, { data: { id: 1 } }, Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])));
	};
	const outcomes: Array<{ arrived: number; ended: number; retryAfterMs?: number; message?: string; httpCode?: string | null; ok: boolean }> = [];
	// 60 reads, a tenth of a second apart after the first ten, each with 3 s to go; the ERP allows 10 a second.
	const read = async (i: number) => {
		const arrived = Date.now() - start;
		const { ctx } = fakeContext(responder, erp);
		const client = await ErpClient.create(ctx, { concurrency: 1, deadlineAt: Date.now() + 3000 });
		try {
			await client.request({ method: 'GET', path: `/invoices/${i}`, doing: { action: `read invoice ${i}`, noun: 'invoice', id: i }, expect: 'record' });
			outcomes.push({ arrived, ended: Date.now() - start, ok: true });
		} catch (error) {
			outcomes.push({ arrived, ended: Date.now() - start, ok: false, retryAfterMs: retryAfterOf(error), message: (error as Error).message, httpCode: (error as { httpCode?: string | null }).httpCode });
		}
	};
	const all: Array<Promise<void>> = [];
	for (let i = 0; i < 60; i++) {
		all.push(read(i));
		if (i >= 10) await clock.advance(10);
	}
	let done = false;
	void Promise.all(all).then(() => (done = true));
	while (!done) await clock.advance(5);

	const answered = outcomes.filter((o) => o.ok);
	const refused = outcomes.filter((o) => !o.ok);
	// No request is refused by the ERP, each answered one went before its deadline, and the pace filled the time.
	expect(sent).toHaveLength(answered.length);
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
	const clock = fakeTime('manual', 0);
	const rate = new RateController();
	const first = await rate.admit(0);
	const second = await rate.admit(0);
	rate.learn(first, { statusCode: 200, limits: readRateHeaders({ 'x-ratelimit-remaining': '1' }, Date.now()) });
	// One left in the window, one on the wire: no room until an answer comes, which comes after the deadline.
	let outcome: unknown;
	rate.admit(0, undefined, 500).then(
		() => (outcome = 'sent'),
		(error: unknown) => (outcome = error),
	);
	await clock.advance(600);
	expect(outcome).toBeUndefined();
	rate.learn(second, { statusCode: 200, limits: readRateHeaders({ 'x-ratelimit-remaining': '1' }, Date.now()) });
	await flush();
	expect(outcome).toBeInstanceOf(WaitTooLong);
	expect((outcome as WaitTooLong).named).toBe(false);
});
