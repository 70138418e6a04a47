import { sleep } from 'n8n-workflow';

/** How requests share the ERP: the gate, window and pacer are one per ERP in a process (sharedBudget.ts). */

/** Time and chance, injectable so the retry rules can be tested without waiting. */
export interface Clock {
	now(): number;
	sleep(ms: number): Promise<void>;
	random(): number;
}

/**
 * Waits in `queue` until called; a cancelled execution (the signal) leaves the queue at once and rejects, so no
 * slot is ever handed to a run that is gone.
 */
function queueTurn(queue: Array<() => void>, signal?: AbortSignal): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		if (signal?.aborted) return reject(signal.reason);
		const onAbort = () => {
			const index = queue.indexOf(wake);
			if (index >= 0) queue.splice(index, 1);
			reject(signal?.reason);
		};
		const wake = () => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		};
		queue.push(wake);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
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
 *
 * Other processes (queue-mode workers) may spend the same window: each keeps to its share of what is left. The
 * share is learnt per window from the answers: the count fell by `fall` while this process had `own` answers,
 * so about fall / own processes spend it. One process alone counts itself once, as before.
 */
export class RateWindow {
	private remaining?: number;

	private running = 0;

	private waiters: Array<() => void> = [];

	private consumers = 1;

	private seen?: { top: number; low: number; own: number; resetAtMs?: number };

	/** Resolves when an item may start; call the answer once the item is done. Rejects when the signal aborts. */
	async admit(signal?: AbortSignal): Promise<() => void> {
		while (!(this.remaining === undefined || this.running === 0 || this.remaining > this.running * this.consumers)) {
			await queueTurn(this.waiters, signal);
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

	/** What an answer of the current window says is left, and the reset it names as an instant, if it does. */
	observe(remaining: number | undefined, resetAtMs?: number): void {
		if (remaining === undefined) return;
		const named = resetAtMs !== undefined && this.seen?.resetAtMs !== undefined;
		// An answer naming an earlier reset than the window's was counted in a window already over.
		if (named && resetAtMs < (this.seen?.resetAtMs ?? 0)) return;
		// A later reset is a new window; without one, a count higher than answers in flight can explain is.
		const newWindow = named ? resetAtMs > (this.seen?.resetAtMs ?? 0) : this.seen && remaining > this.seen.low + Math.max(1, this.running);
		if (newWindow) this.closeWindow();
		if (!this.seen) this.seen = { top: remaining, low: remaining, own: 0, resetAtMs };
		this.seen.top = Math.max(this.seen.top, remaining);
		this.seen.low = Math.min(this.seen.low, remaining);
		this.seen.own++;
		// Answers overtake each other: the lowest count of the window is the one that holds.
		this.remaining = this.seen.low;
		this.wake();
	}

	/** A 429 named the wait: after it a new window starts, of unknown size until its first answers. */
	expectNewWindow(): void {
		this.closeWindow();
		this.remaining = undefined;
		this.wake();
	}

	/** How many processes seem to spend the window (1 until a window has told). */
	spenders(): number {
		return this.consumers;
	}

	/** Nothing runs and nothing waits. */
	idle(): boolean {
		return this.running === 0 && this.waiters.length === 0;
	}

	private closeWindow(): void {
		const seen = this.seen;
		this.seen = undefined;
		// Too few answers say nothing about the others.
		if (!seen || seen.own < MIN_ANSWERS_FOR_SHARE) return;
		const measured = Math.min(MAX_SPENDERS, Math.max(1, (seen.top - seen.low + 1) / seen.own));
		// Fewer spending is taken at once: a process left alone uses the whole window from the next one on.
		this.consumers = measured < this.consumers ? measured : (this.consumers + measured) / 2;
	}

	private wake(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const resolve of waiters) resolve();
	}
}

/**
 * When the ERP's window ends, for an ERP that names its reset as an instant in whole epoch seconds (up to a second
 * late). A window starts with the first request to arrive in it: after every request answered in an earlier
 * window was sent, and by the first answer in it. So it lasts at most its named reset minus the sending of this
 * process's last request of an earlier window (or of the request that opened it: the answer leaves Limit - 1).
 * Windows that open at other points of a second narrow that bound, and the distance from one opening request's
 * sending to the next one's answer bounds it too, whatever the ERP's clock says. From below: a window ended after
 * the whole second before its reset and began by its first answer here, and one that refused a request had not
 * ended when the request was sent. Windows of whole seconds are the common choice, and the upper bound learns
 * slowly (only as windows open at other points of a second): when the bounds leave exactly one whole second, it
 * is the length; a refusal that shows the window is longer drops it. The window seen now began by its first
 * answer, so it ends by that answer plus the length, and by its named reset. Without a whole second, nothing is
 * held before two windows have bounded the length: the first bound alone can be a second late, and leans on the
 * ERP's clock.
 */
export class WindowEnd {
	private longest = Number.POSITIVE_INFINITY;

	private shortest = 0;

	private lastOpening?: number;

	private bounded = 0;

	private current?: { resetAtMs: number; firstAt: number; openedAfter: number; lastSent: number };

	observe(answer: { remaining?: number; limit?: number; resetAtMs?: number; sentAt: number; answeredAt: number }): void {
		const { remaining, limit, resetAtMs, sentAt, answeredAt } = answer;
		if (resetAtMs === undefined || remaining === undefined) return;
		const opened = limit !== undefined && remaining === limit - 1;
		if (opened) {
			if (this.lastOpening !== undefined && sentAt > this.lastOpening) this.longest = Math.min(this.longest, answeredAt - this.lastOpening);
			this.lastOpening = sentAt;
		}
		// An answer naming an earlier reset was sent in a window already over.
		if (this.current && resetAtMs < this.current.resetAtMs) return;
		if (opened || !this.current || resetAtMs > this.current.resetAtMs) {
			const openedAfter = opened ? sentAt : this.current?.lastSent;
			if (openedAfter !== undefined) {
				this.longest = Math.min(this.longest, resetAtMs - openedAfter);
				this.bounded++;
			}
			this.current = { resetAtMs, firstAt: answeredAt, openedAfter: openedAfter ?? answeredAt, lastSent: sentAt };
			// It began by this answer, and its end was past the whole second before its reset.
			this.shortest = Math.max(this.shortest, resetAtMs - 1000 - answeredAt);
		} else this.current.lastSent = Math.max(this.current.lastSent, sentAt);
	}

	/** A request sent at `sentAt` was refused in the window whose reset is named: that window lasts longer. */
	refused(sentAt: number, resetAtMs?: number): void {
		if (this.current && resetAtMs === this.current.resetAtMs) this.shortest = Math.max(this.shortest, sentAt - this.current.firstAt);
	}

	/**
	 * The window's length: the one whole second its bounds leave, or its upper bound once two windows have bounded
	 * it; for pacing (`roughly`), once one has: a pace too fast is caught by the count, a hold too short would be
	 * refused.
	 */
	length(roughly = false): number | undefined {
		if (!(this.bounded >= 1 && this.longest > 0 && this.longest <= MAX_LEARNT_WINDOW_MS)) return undefined;
		// Bounds that contradict each other (a reset named before the window ends): nothing is learnt.
		if (this.shortest >= this.longest) return undefined;
		// Windows of whole seconds are the common choice: when the bounds leave exactly one, it is the length.
		const whole = Math.floor(this.longest / 1000) * 1000;
		if (whole > this.shortest && whole - 1000 <= this.shortest) return whole;
		return this.bounded >= (roughly ? 1 : 2) ? this.longest : undefined;
	}

	/** The latest moment the window seen now can end, once two windows have bounded its length. */
	endsBy(): number | undefined {
		const length = this.length();
		if (!this.current || length === undefined) return undefined;
		return Math.min(this.current.resetAtMs, this.current.firstAt + length);
	}

	/**
	 * When the window seen now most likely ends, for pacing: it opened after this process's last request of an
	 * earlier window. A process that did not open the window would otherwise count from its first answer in it,
	 * spread its share over more time than is left, and leave the window to the others. Too early is safe: none
	 * left still waits for endsBy.
	 */
	expectedEnd(): number | undefined {
		const length = this.length(true);
		if (!this.current || length === undefined) return undefined;
		return Math.min(this.current.resetAtMs, this.current.openedAfter + length);
	}
}

/** A longer window is left to the 429 that names its wait. */
const MAX_LEARNT_WINDOW_MS = 60_000;

const MIN_ANSWERS_FOR_SHARE = 5;
const MAX_SPENDERS = 16;

/**
 * At most `limit` requests on the wire at once (items and read-ahead pages share the slots): one per node run
 * (its Concurrency) and one per ERP in the process. A request holds its slot at the 429 gate and on the wire,
 * not while it sleeps before its own retry. A cancelled run leaves the queue at once.
 */
export class InFlightLimit {
	private active = 0;

	private readonly queue: Array<() => void> = [];

	constructor(private readonly limit: number) {}

	async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
		const release = await this.acquire(signal);
		try {
			return await work();
		} finally {
			release();
		}
	}

	/** Resolves with a slot (call the answer to give it back); rejects only when the signal aborts. */
	async acquire(signal?: AbortSignal): Promise<() => void> {
		if (this.active >= this.limit) await queueTurn(this.queue, signal);
		else this.active++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			// The slot passes straight to the next waiter; only when nobody waits is it given back.
			const next = this.queue.shift();
			if (next) next();
			else this.active--;
		};
	}

	/** Nothing on the wire and nothing waiting. */
	idle(): boolean {
		return this.active === 0 && this.queue.length === 0;
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
