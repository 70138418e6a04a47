import { RateWindow, WindowEnd } from '../../../../nodes/Erp/transport/flowControl';
import { Pacer, windowPace, windowShare } from '../../../../nodes/Erp/transport/pacing';
import { manualClock } from '../fakes';

describe('Pacer (an ERP that names no window: the pace is learnt from its 429s)', () => {
	it('sets no pace before the first refusal, however fast the requests go', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 500; i++) {
			expect(pacer.turn()).toBe(0);
			pacer.succeeded();
		}
		expect(pacer.pace()).toBeUndefined();
	});

	it('on the first refusal paces just under what was answered in the last second, and spreads the requests', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 50; i++) {
			pacer.succeeded();
			await clock.advance(10);
		}
		pacer.refused(clock.now());
		expect(pacer.pace()).toBeCloseTo(42.5);
		await clock.advance(1000);
		expect(pacer.turn()).toBe(0);
		// A waiting request is told how long, and takes no turn until it asks again.
		expect(pacer.turn()).toBeCloseTo(1000 / 42.5);
		expect(pacer.turn()).toBeCloseTo(1000 / 42.5);
		await clock.advance(1000 / 42.5);
		expect(pacer.turn()).toBe(0);
		expect(pacer.turn()).toBeCloseTo(1000 / 42.5);
	});

	it('gives a request that waited at the old pace its turn at the new one', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		pacer.keepTo(1);
		expect(pacer.turn()).toBe(0);
		expect(pacer.turn()).toBe(1000);
		pacer.keepTo(100);
		expect(pacer.turn()).toBe(10);
		await clock.advance(10);
		expect(pacer.turn()).toBe(0);
	});

	it('credits a turn taken late (a timer fires late) up to one interval, so the pace is kept, with no burst after a pause', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		pacer.keepTo(50);
		const taken: number[] = [];
		for (let i = 0; i < 50; i++) {
			for (let wait = pacer.turn(); wait > 0; wait = pacer.turn()) await clock.advance(wait + 3);
			taken.push(clock.now());
		}
		// 50 a second although every wait ended 3 ms late.
		expect(taken[49] - taken[0]).toBeLessThanOrEqual(49 * 20 + 3);
		await clock.advance(1000);
		expect(pacer.turn()).toBe(0);
		expect(pacer.turn()).toBe(20);
	});

	it('takes the refusals of requests sent before its last cut, or within a second of it, for the echo of the same one', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 20; i++) pacer.succeeded();
		const sentBefore = clock.now();
		await clock.advance(5);
		pacer.refused(clock.now());
		const cut = pacer.pace();
		pacer.refused(sentBefore);
		expect(pacer.pace()).toBe(cut);
		await clock.advance(500);
		pacer.refused(clock.now() - 1);
		expect(pacer.pace()).toBe(cut);
		await clock.advance(500);
		pacer.refused(clock.now());
		expect(pacer.pace()).toBeCloseTo((cut ?? 0) * 0.85);
	});

	it('speeds up while no refusal comes and the pace holds requests back: about 2 a second more in the first second, faster the longer none comes', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 40; i++) pacer.succeeded();
		pacer.refused(clock.now());
		const start = pacer.pace() ?? 0;
		const paceAfter = async (ms: number) => {
			for (let elapsed = 0; elapsed < ms; ) {
				const wait = pacer.turn();
				await clock.advance(wait);
				elapsed += wait;
				if (wait === 0) pacer.succeeded();
			}
			return (pacer.pace() ?? 0) - start;
		};
		const firstSecond = await paceAfter(1000);
		expect(firstSecond).toBeGreaterThan(1.5);
		expect(firstSecond).toBeLessThan(2.5);
		// 2 + 4 + 6 + 8 + 10 a second more over five seconds, about.
		const fiveSeconds = await paceAfter(4000);
		expect(fiveSeconds).toBeGreaterThan(22);
		expect(fiveSeconds).toBeLessThan(32);
	});

	it('does not grow while the requests come slower than the pace', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 10; i++) pacer.succeeded();
		pacer.refused(clock.now());
		const pace = pacer.pace();
		for (let i = 0; i < 20; i++) {
			await clock.advance(1000);
			pacer.turn();
			pacer.succeeded();
		}
		expect(pacer.pace()).toBe(pace);
	});

	it('sets no pace from a refusal with nothing answered before it', () => {
		const pacer = new Pacer(manualClock());
		pacer.refused(0);
		expect(pacer.pace()).toBeUndefined();
	});
});

describe('RateWindow shared with other processes (queue-mode workers on one limit)', () => {
	/** One window of `limit` requests, spent by this process and `others` more, in turn. */
	function spendWindow(window: RateWindow, limit: number, others: number): void {
		for (let left = limit - 1; left >= 0; left -= others + 1) window.observe(left);
	}

	it('counts itself alone while only its own answers spend the window', () => {
		const window = new RateWindow();
		for (let n = 0; n < 3; n++) spendWindow(window, 50, 0);
		window.expectNewWindow();
		expect(window.spenders()).toBe(1);
	});

	it('learns that another process spends the same window, and keeps to its half of what is left', async () => {
		const window = new RateWindow();
		for (let n = 0; n < 4; n++) spendWindow(window, 50, 1);
		window.expectNewWindow();
		expect(window.spenders()).toBeGreaterThan(1.8);
		window.observe(10);
		const started = [];
		for (let i = 0; i < 10; i++) {
			let admitted = false;
			void window.admit().then(() => (admitted = true));
			await new Promise((resolve) => setImmediate(resolve));
			started.push(admitted);
		}
		// About half: 10 left between two processes, the estimate just under 2.
		expect(started.filter(Boolean).length).toBeLessThanOrEqual(6);
		expect(started.filter(Boolean).length).toBeGreaterThanOrEqual(5);
	});
});

describe('the pace an ERP that counts its window sets', () => {
	it('spreads this process\'s share of what is left over the time left, the last request before the window ends', () => {
		// Alone: 49 left in 1 s, 50 intervals.
		expect(windowPace({ remaining: 49, limit: 50, windowMs: 1000, msLeft: 1000, spenders: 1 })).toBeCloseTo(50);
		// Two processes: about half of it each (a little more, windowShare).
		const share = 49 * windowShare(2);
		expect(windowPace({ remaining: 49, limit: 50, windowMs: 1000, msLeft: 1000, spenders: 2 })).toBeCloseTo(share + 1);
		expect(share).toBeGreaterThan(24.5);
		expect(share).toBeLessThan(27.5);
		// The others spent faster than planned: fewer left, the same time, a slower pace for this one.
		expect(windowPace({ remaining: 10, limit: 50, windowMs: 1000, msLeft: 500, spenders: 2 })).toBeLessThan(25);
	});

	it('past the window\'s expected end, or with less than one request of it left, paces to the whole window\'s rate, shared', () => {
		expect(windowPace({ remaining: 20, limit: 50, windowMs: 1000, msLeft: 0, spenders: 2 })).toBeCloseTo(25);
		expect(windowPace({ remaining: 1, limit: 50, windowMs: 1000, msLeft: 300, spenders: 2 })).toBeCloseTo(25);
		expect(windowPace({ remaining: 1, windowMs: 1000, msLeft: 300, spenders: 2 })).toBeUndefined();
	});

	it('does not grow by itself, and is dropped once it held nothing back for 2 s: the next burst goes at once', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		pacer.keepTo(10);
		for (let i = 0; i < 30; i++) {
			for (let wait = pacer.turn(); wait > 0; wait = pacer.turn()) await clock.advance(wait);
			pacer.succeeded();
		}
		expect(pacer.pace()).toBe(10);
		await clock.advance(2001);
		expect(pacer.turn()).toBe(0);
		expect(pacer.keepsToWindow()).toBe(false);
		expect(pacer.pace()).toBeUndefined();
	});
});

describe('WindowEnd (a reset named in whole epoch seconds)', () => {
	const second = 1_800_000_000_000;
	const answer = (remaining: number, resetS: number, sentAt: number, answeredAt = sentAt + 5) => ({ remaining, limit: 50, resetAtMs: second + resetS * 1000, sentAt: second + sentAt, answeredAt: second + answeredAt });

	it('bounds the window by a window this process did not open: it opened after this process\'s last request of the one before', () => {
		const end = new WindowEnd();
		// Window 1, opened by another process at 0.985: with no window before it here, it bounds nothing.
		end.observe(answer(40, 2, 995));
		expect(end.length(true)).toBeUndefined();
		end.observe(answer(2, 2, 1980));
		// Window 2, opened by another process too: after 1.980, and named 3.000.
		end.observe(answer(45, 3, 2010));
		// At most 3.000 - 1.980: the one whole second the bounds leave is taken as the length.
		expect(end.length(true)).toBe(1000);
		expect(end.length()).toBe(1000);
		end.observe(answer(3, 3, 2980));
		end.observe(answer(20, 4, 3100));
		expect(end.length()).toBe(1000);
		expect(end.endsBy()).toBe(second + 4000);
	});

	it('takes the one whole second the bounds leave as the length, and drops it once a refusal shows the window is longer', () => {
		const end = new WindowEnd();
		// A window of 1.5 s, opened here at 0.100: it ends at 1.600, named 2.000. It lasts at most 1.900, and
		// more than 0.895 (it ended after 1.000 and began by 0.105): 1 s is the one whole second between.
		end.observe(answer(49, 2, 100));
		expect(end.length(true)).toBe(1000);
		// A request sent at 1.200 is refused in that window: it lasts more than 1.095.
		end.refused(second + 1200, second + 2000);
		expect(end.length(true)).toBe(1900);
		// An upper bound that is no whole second is held to only once two windows have bounded it.
		expect(end.length()).toBeUndefined();
		// A refusal naming another window tells nothing of this one.
		end.refused(second + 1900, second + 3000);
		expect(end.length(true)).toBe(1900);
	});

	it('learns nothing from bounds that contradict each other (a reset named before its window ends)', () => {
		const end = new WindowEnd();
		// Opened at 0.100, the reset named at 1.000 (rounded down): at most 0.900 long.
		end.observe(answer(49, 1, 100));
		expect(end.length(true)).toBe(900);
		// Refused at 1.050 in that window: it lasts more than 0.945, which the reset named cannot be.
		end.refused(second + 1050, second + 1000);
		expect(end.length(true)).toBeUndefined();
	});

	it('expects the window to end a length after this process\'s last request of the window before; holds only to endsBy', () => {
		const end = new WindowEnd();
		// Opened here at 0.000, named 1.000: at most 1 s, after one window as a bound only for pacing.
		end.observe(answer(49, 1, 0));
		expect(end.length()).toBe(1000);
		expect(end.length(true)).toBe(1000);
		end.observe(answer(10, 1, 900));
		end.observe(answer(20, 2, 1300, 1305));
		expect(end.length()).toBe(1000);
		// Not opened here: it started after 0.900 and by 1.305.
		expect(end.expectedEnd()).toBe(second + 1900);
		expect(end.endsBy()).toBe(second + 2000);
	});
});
