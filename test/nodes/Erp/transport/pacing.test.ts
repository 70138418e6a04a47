import { RateWindow } from '../../../../nodes/Erp/transport/flowControl';
import { Pacer } from '../../../../nodes/Erp/transport/pacing';
import { manualClock } from '../fakes';

describe('Pacer (an ERP that names no window: the pace is learnt from its 429s)', () => {
	it('sets no pace before the first refusal, however fast the requests go', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 500; i++) {
			expect(pacer.reserve()).toBe(0);
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
		const waits = [pacer.reserve(), pacer.reserve(), pacer.reserve()];
		expect(waits[1] - waits[0]).toBeCloseTo(1000 / 42.5);
		expect(waits[2] - waits[1]).toBeCloseTo(1000 / 42.5);
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

	it('speeds up gently while no refusal comes and the pace holds requests back: about 2 requests a second more each second', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 40; i++) pacer.succeeded();
		pacer.refused(clock.now());
		const start = pacer.pace() ?? 0;
		for (let elapsed = 0; elapsed < 5000; ) {
			const wait = pacer.reserve();
			await clock.advance(wait);
			elapsed += wait;
			pacer.succeeded();
		}
		expect((pacer.pace() ?? 0) - start).toBeGreaterThan(8);
		expect((pacer.pace() ?? 0) - start).toBeLessThan(12);
	});

	it('does not grow while the requests come slower than the pace', async () => {
		const clock = manualClock();
		const pacer = new Pacer(clock);
		for (let i = 0; i < 10; i++) pacer.succeeded();
		pacer.refused(clock.now());
		const pace = pacer.pace();
		for (let i = 0; i < 20; i++) {
			await clock.advance(1000);
			pacer.reserve();
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
