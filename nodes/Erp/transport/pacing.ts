import type { Clock } from './flowControl';

/** The pace never falls below this many requests a second. */
const MIN_RATE = 1;
/** On a refusal: the new pace is this share of the old one (of the pace achieved, on the first refusal). */
const DECREASE = 0.85;
/** While none is refused: about this many requests a second more, in the first second the pace holds requests back after a cut. */
const INCREASE_PER_S = 2;
const RECENT_MS = 1_000;
/**
 * At most one cut this often: a window used up refuses every request until it ends, and those refusals are all
 * one overshoot, not one each.
 */
const CUT_EVERY_MS = 1_000;
/** A window's pace that held no request back this long is dropped: the burst it was for is over. */
const WINDOW_PACE_IDLE_MS = 2_000;

/** How much more than its last share of a window a process plans to spend: the force toward fair shares. */
const FAIR_GROWTH = 0.05;

/**
 * The pace of requests to one ERP in this process, learnt in one of two ways.
 *
 * From the 429s alone, for an ERP that names no window: additive increase, multiplicative decrease on a rate of
 * requests a second, as TCP does with its window. Every worker of a queue-mode n8n runs its own; as the refusals
 * fall on all of them, their paces together settle just under the ERP's limit.
 *
 * From the ERP's count, once a window was used up (`keepTo`, with windowPace): requests sent as a burst use a
 * window up in its first moments and wait out the rest, and the counts other processes read are stale by all
 * that is on the wire, so together they overshoot; spread, each window opens as the last ends and the counts stay
 * fresh.
 *
 * No pace at all until then: a run against an ERP without a limit, or a burst that fits the window, never waits.
 */
export class Pacer {
	private rate?: number;

	/** When the last turn was due. */
	private lastTurn = Number.NEGATIVE_INFINITY;

	private cutAt = Number.NEGATIVE_INFINITY;

	private heldAt = Number.NEGATIVE_INFINITY;

	private fromWindow = false;

	private recent: number[] = [];

	constructor(private readonly clock: Clock) {}

	/**
	 * 0 when a request may go now (its turn is taken), else how long until the next turn, taking none: the pace
	 * may change meanwhile, so a waiting request asks again instead of holding a turn computed at the old pace.
	 */
	turn(): number {
		if (this.rate === undefined) return 0;
		const now = this.clock.now();
		if (this.fromWindow && now - this.heldAt > WINDOW_PACE_IDLE_MS) {
			this.rate = undefined;
			this.fromWindow = false;
			return 0;
		}
		const interval = 1000 / this.rate;
		const wait = this.lastTurn + interval - now;
		if (wait > 0) {
			this.heldAt = now;
			return wait;
		}
		// A turn taken late by less than an interval (a timer firing late) keeps the schedule; after a pause it restarts.
		this.lastTurn = wait > -interval ? this.lastTurn + interval : now;
		return 0;
	}

	/** A request was answered without a refusal. */
	succeeded(): void {
		const now = this.clock.now();
		this.recent.push(now);
		while (this.recent.length > 0 && this.recent[0] <= now - RECENT_MS) this.recent.shift();
		// Faster only while the pace is what holds requests back: an idle pace must not grow without bound.
		const holding = this.rate !== undefined && now - this.heldAt < 2000 / this.rate;
		// The longer none is refused, the faster it grows (n seconds after a cut, about 2n a second more): a worker
		// left alone by another that finished gets to the whole limit in seconds, not half a minute.
		const sinceCut = Math.max(1, (now - this.cutAt) / 1000);
		if (this.rate !== undefined && holding && !this.fromWindow) this.rate += (INCREASE_PER_S * sinceCut) / this.rate;
	}

	/**
	 * A request sent at `sentAt` was refused with 429; refusals of requests sent before the last cut, or within
	 * CUT_EVERY_MS of it, are its echo.
	 */
	refused(sentAt: number): void {
		const now = this.clock.now();
		if (sentAt < this.cutAt || now - this.cutAt < CUT_EVERY_MS) return;
		const achieved = this.recent.filter((at) => at > now - RECENT_MS).length * (1000 / RECENT_MS);
		// A refusal with nothing answered before it tells no pace: the wait it names (or the back-off) is all there is.
		if (this.rate === undefined && achieved === 0) return;
		this.rate = Math.max(MIN_RATE, DECREASE * (this.rate ?? achieved));
		this.fromWindow = false;
		this.cutAt = now;
		this.lastTurn = Math.max(this.lastTurn, now);
	}

	/** The pace an ERP's window sets (windowPace); it does not grow by itself. */
	keepTo(rate: number): void {
		if (!this.fromWindow) this.heldAt = this.clock.now();
		this.rate = Math.max(MIN_RATE, rate);
		this.fromWindow = true;
	}

	/** Whether the pace is an ERP's window's (keepTo). */
	keepsToWindow(): boolean {
		return this.fromWindow;
	}

	/** Requests a second, or undefined while none is set. */
	pace(): number | undefined {
		return this.rate;
	}
}

/**
 * This process's pace in an ERP's window: its share of what is left, spread evenly over the time left (the last
 * before it ends). Other processes spending faster use the window up sooner, so the count left falls and every
 * process slows at once; spending slower leaves more for all. Past the window's expected end (or when none is
 * left, before the next window's first answer), the whole window's pace, shared.
 */
export function windowPace(window: { remaining: number; limit?: number; windowMs: number; msLeft: number; spenders: number }): number | undefined {
	const { remaining, limit, windowMs, msLeft, spenders } = window;
	const mine = remaining * windowShare(spenders);
	// n requests spread over n + 1 intervals: the last goes before the window ends, so none of it is left unused.
	if (mine >= 1 && msLeft > 0) return (mine + 1) / (msLeft / 1000);
	return limit === undefined ? undefined : (limit * 1000) / windowMs / spenders;
}

/**
 * The share of a window's count this process plans to spend: a little more than its share last seen, so that a
 * process that got too small a share grows it (TCP's additive increase), while the count falling faster slows
 * every process in proportion.
 */
export function windowShare(spenders: number): number {
	return Math.min(1, 1 / spenders + FAIR_GROWTH);
}
