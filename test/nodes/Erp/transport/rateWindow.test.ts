import { RateWindow, remainingFrom } from '../../../../nodes/Erp/transport/rateWindow';

/** Whether the promise has settled once everything already queued has run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
	let settled = false;
	void promise.then(() => (settled = true));
	await new Promise((resolve) => setImmediate(resolve));
	return settled;
}

describe('remainingFrom', () => {
	it('reads X-RateLimit-Remaining, or the draft standard RateLimit-Remaining', () => {
		expect(remainingFrom({ 'x-ratelimit-remaining': '7' })).toBe(7);
		expect(remainingFrom({ 'ratelimit-remaining': ' 0 ' })).toBe(0);
		expect(remainingFrom({ 'x-ratelimit-remaining': ['3', '9'] })).toBe(3);
	});

	it('ignores a missing or meaningless value', () => {
		expect(remainingFrom({})).toBeUndefined();
		expect(remainingFrom({ 'x-ratelimit-remaining': 'many' })).toBeUndefined();
		expect(remainingFrom({ 'x-ratelimit-remaining': '-1' })).toBeUndefined();
		expect(remainingFrom({ 'x-ratelimit-remaining': '' })).toBeUndefined();
	});
});

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
