import type { Clock } from './flowControl';

/** The pace never falls below this many requests a second. */
const MIN_RATE = 1;
/** On a refusal: the new pace is this share of the old one (of the pace achieved, on the first refusal). */
const DECREASE = 0.85;
/** While none is refused: about this many requests a second more, each second the pace is what holds requests back. */
const INCREASE_PER_S = 2;
const RECENT_MS = 1_000;
/**
 * At most one cut this often: a window used up refuses every request until it ends, and those refusals are all
 * one overshoot, not one each.
 */
const CUT_EVERY_MS = 1_000;

/**
 * Pacing from the 429s alone, for an ERP that names no window: additive increase, multiplicative decrease on a
 * rate of requests a second, as TCP does with its window. Every worker of a queue-mode n8n runs its own; as the
 * refusals fall on all of them, their paces together settle just under the ERP's limit. No pace at all until the
 * first refusal: a run against an ERP without a limit never waits here.
 */
export class Pacer {
	private rate?: number;

	private nextAt = 0;

	private cutAt = Number.NEGATIVE_INFINITY;

	/** Whether the last request had to wait for its turn. */
	private holding = false;

	private recent: number[] = [];

	constructor(private readonly clock: Clock) {}

	/** How long the next request waits for its turn (its turn is taken now). */
	reserve(): number {
		if (this.rate === undefined) return 0;
		const now = this.clock.now();
		const at = Math.max(now, this.nextAt);
		this.holding = at > now;
		this.nextAt = at + 1000 / this.rate;
		return at - now;
	}

	/** A request was answered without a refusal. */
	succeeded(): void {
		const now = this.clock.now();
		this.recent.push(now);
		while (this.recent.length > 0 && this.recent[0] <= now - RECENT_MS) this.recent.shift();
		// Faster only while the pace is what holds requests back: an idle pace must not grow without bound.
		if (this.rate !== undefined && this.holding) this.rate += INCREASE_PER_S / this.rate;
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
		this.cutAt = now;
		this.nextAt = Math.max(this.nextAt, now + 1000 / this.rate);
	}

	/** Requests a second, or undefined while no refusal came. */
	pace(): number | undefined {
		return this.rate;
	}
}
