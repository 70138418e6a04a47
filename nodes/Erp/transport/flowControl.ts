import { sleep } from 'n8n-workflow';

/**
 * How the requests of one node run share the ERP: the clock they wait on, the 429 gate they all obey, the
 * rate-limit window that holds new items back, and the limit on requests in flight. One of each per ErpClient.
 */

/** Time and chance, injectable so the retry rules can be tested without waiting. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

/** Real time; a cancelled execution (the signal) ends any wait at once (the sleep rejects). */
export function systemClock(signal?: AbortSignal): Clock {
	return {
		now: () => Date.now(),
		sleep: async (ms) => await sleep(ms, signal),
		random: () => Math.random(),
	};
}

/**
 * One gate shared by all requests of a node run: when the service answers 429, every request waits
 * until the same moment before it is sent, so parallel requests do not keep hitting the limit.
 */
export class BackOffGate {
	private resumeAt = 0;

	constructor(private readonly clock: Clock) {}

	/** Whether a wait is on: answers arriving now belong to the window that was refused. */
	holding(): boolean {
		return this.waitLeft() > 0;
	}

	/** Milliseconds until requests may go again (0 when no wait is on). */
	waitLeft(): number {
		return Math.max(0, this.resumeAt - this.clock.now());
	}

	holdUntil(timestampMs: number): void {
		this.resumeAt = Math.max(this.resumeAt, timestampMs);
	}
}

/**
 * Holds back new items once the service says its rate-limit window is used up, before their parameters are
 * read. Without it every item in flight starts its next one, spends CPU on it and is refused; the 429 that
 * names the wait then comes late, and the whole wait starts late. With it, one item goes ahead and learns the
 * wait (Retry-After) while the others wait; during that wait they get ready, so that the next window's
 * requests leave together the moment it opens.
 *
 * An item may start while the window is unknown (no header, or a 429 wait announced since), while the window
 * has more requests left than items are running, or when no item runs at all (it goes ahead alone).
 */
export class RateWindow {
	private remaining?: number;

	private running = 0;

	private waiters: Array<() => void> = [];

	/** Resolves when an item may start; call the answer once the item is done. */
	async admit(): Promise<() => void> {
		while (!this.hasRoom()) await new Promise<void>((resolve) => this.waiters.push(resolve));
		this.running++;
		let done = false;
		return () => {
			if (done) return;
			done = true;
			this.running--;
			this.wake();
		};
	}

	/** What an answer of the current window says is left. */
	observe(remaining: number | undefined): void {
		if (remaining === undefined) return;
		this.remaining = remaining;
		this.wake();
	}

	/** A 429 named the wait: after it, a new window starts, of unknown size until its first answers. */
	expectNewWindow(): void {
		this.remaining = undefined;
		this.wake();
	}

	private hasRoom(): boolean {
		return this.remaining === undefined || this.running === 0 || this.remaining > this.running;
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}

/**
 * At most `limit` requests on the wire at once, over everything one node run sends: items running side by
 * side and the pages one Return All reads ahead share the same slots, so Concurrency is never multiplied.
 * A request holds its slot while it waits at the 429 gate and while it is sent, not while it sleeps before a
 * retry of its own.
 */
export class InFlightLimit {
	private active = 0;

	private readonly queue: Array<() => void> = [];

	constructor(private readonly limit: number) {}

	async run<T>(work: () => Promise<T>): Promise<T> {
		if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
		else this.active++;
		try {
			return await work();
		} finally {
			const next = this.queue.shift();
			// The slot passes straight to the next waiter; only when nobody waits is it given back.
			if (next) next();
			else this.active--;
		}
	}
}

/**
 * Runs `work(0..count-1)` with at most `limit` in flight, in index order of start.
 * After the first failure no new work starts; the ones in flight finish, then that failure is thrown.
 */
export async function forEachConcurrently(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < count) {
			const index = next++;
			try {
				await work(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	if (failure) throw failure.error;
}
