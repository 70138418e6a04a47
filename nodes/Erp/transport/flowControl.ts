import { sleep } from 'n8n-workflow';

/** How the requests of one node run share the ERP. One of each per ErpClient. */

/** Time and chance, injectable so the retry rules can be tested without waiting. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

/** Real time; a cancelled execution (the signal) ends any wait at once (the sleep rejects). */
export function systemClock(signal?: AbortSignal): Clock {
	return { now: () => Date.now(), sleep: async (ms) => await sleep(ms, signal), random: () => Math.random() };
}

/** After a 429 every request waits until the same moment, so parallel requests do not keep hitting the limit. */
export class BackOffGate {
	private resumeAt = 0;

	constructor(private readonly clock: Clock) {}

	/** Whether a wait is on: answers arriving now belong to the window that was refused. */
	holding(): boolean {
		return this.waitLeft() > 0;
	}

	waitLeft(): number {
		return Math.max(0, this.resumeAt - this.clock.now());
	}

	holdUntil(timestampMs: number): void {
		this.resumeAt = Math.max(this.resumeAt, timestampMs);
	}
}

/**
 * Holds back new items, before their parameters are read, once the ERP says its rate-limit window is used up.
 * Without it every running item starts its next one and is refused, and the 429 that names the wait comes late.
 * With it one item goes ahead and learns the wait while the others get ready for the next window.
 * An item may start while the window is unknown, has more requests left than items run, or when none runs.
 */
export class RateWindow {
	private remaining?: number;

	private running = 0;

	private waiters: Array<() => void> = [];

	/** Resolves when an item may start; call the answer once the item is done. */
	async admit(): Promise<() => void> {
		while (!(this.remaining === undefined || this.running === 0 || this.remaining > this.running)) {
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
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

	/** A 429 named the wait: after it a new window starts, of unknown size until its first answers. */
	expectNewWindow(): void {
		this.remaining = undefined;
		this.wake();
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}

/**
 * At most `limit` requests on the wire at once over the whole node run (items and read-ahead pages share the
 * slots). A request holds its slot at the 429 gate and on the wire, not while it sleeps before its own retry.
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
			// The slot passes straight to the next waiter; only when nobody waits is it given back.
			const next = this.queue.shift();
			if (next) next();
			else this.active--;
		}
	}
}

/** Runs `work(0..count-1)`, at most `limit` at once; after a failure nothing new starts and it is thrown. */
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
