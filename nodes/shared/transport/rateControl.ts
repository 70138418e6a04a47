import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import type { NamedWait, RawResponse } from './types';
import { CONCURRENCY_LIMIT } from './types';

/*
 * One RateController per ERP, shared by every run in the process: `admit` before a request, `learn` after it. Its one
 * state: requests in flight; `pausedUntil`, a wait the ERP named; the `window` and `count` left as the ERP's headers
 * show them, with `limit`, `spenders` (processes spending it) and the window's length bounds; the `pace` (requests a
 * second, from refusals or spreading a used-up window). An ERP that shows no limit is never held back.
 */

/** What an answer says of the limit: the count left, the window's size and its reset (an epoch instant), the wait it names. */
export type RateHeaders = { remaining?: number; limit?: number; resetAtMs?: number; wait?: NamedWait };

/** An admitted request: when it went, and how long a wait the ERP named held it (it counts toward its wait budget). */
export type Ticket = { sentAt: number; pausedMs: number };

/** Thrown by `admit` when a wait the ERP named is longer than the request may still wait (`named`), or when the pace's
 * turns leave it none before its deadline. */
export class WaitTooLong extends Error {
	constructor(
		readonly ms: number,
		readonly named = true,
	) {
		super(named ? `the ERP asks to wait ${ms} ms` : `the next turn of the ERP's pace is ${ms} ms away`);
	}
}

// Without a named wait a refusal holds every request a second (the usual window); a wait named in whole seconds may be
// rounded up by almost a second, so once paced only what is beyond that holds everyone.
const UNNAMED_PAUSE_MS = 1_000;
const ROUNDING_MS = 1_000;
// The pace from refusals: cut to 0.85 at most once a second (later refusals are the same overshoot's echo), grown by
// about 2 a second more in the first second after a cut, n times that n seconds after it.
const DECREASE = 0.85;
const CUT_EVERY_MS = 1_000;
const INCREASE_PER_S = 2;
const MIN_RATE = 1;
// A window's pace that held nothing back for 2 s is dropped: the burst it was for is over.
const WINDOW_PACE_IDLE_MS = 2_000;
// Each process plans a little more than its last share of a window: the pull toward fair shares.
const FAIR_GROWTH = 0.05;
const MIN_ANSWERS_FOR_SHARE = 5;
const MAX_SPENDERS = 16;
// A longer window is left to the 429 that names its wait; a controller idle this long is dropped.
const MAX_LEARNT_WINDOW_MS = 60_000;
const IDLE_MS = 60_000;
// A request waiting for an answer to free room looks again after this long at most.
const RECHECK_MS = 1_000;

const header = (headers: RawResponse['headers'], ...names: string[]): string | undefined =>
	names.map((name) => [headers[name]].flat()[0]?.trim()).find((text) => text);
const count = (text?: string) => (text && /^\d+$/.test(text) ? Number(text) : undefined);

/** The document names no rate-limit headers: X-RateLimit-* or RateLimit-* are read, and the wait from Retry-After
 * (seconds or an HTTP date), else from the reset (epoch seconds, or seconds from now when small). */
export function readRateHeaders(headers: RawResponse['headers'], now: number): RateHeaders {
	const seconds = (text?: string) => (text && /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : undefined);
	const retryAfter = header(headers, 'retry-after');
	const reset = seconds(header(headers, 'x-ratelimit-reset', 'ratelimit-reset'));
	const resetAtMs = reset !== undefined && reset > 1e12 ? reset : undefined;
	const afterMs = seconds(retryAfter);
	const date = retryAfter && afterMs === undefined ? Date.parse(retryAfter) : Number.NaN;
	const atMs = Number.isNaN(date) ? (afterMs === undefined ? resetAtMs : undefined) : date;
	const ms = afterMs ?? (atMs === undefined ? reset : atMs - now);
	return {
		remaining: count(header(headers, 'x-ratelimit-remaining', 'ratelimit-remaining')),
		limit: count(header(headers, 'x-ratelimit-limit', 'ratelimit-limit')),
		resetAtMs,
		wait: ms === undefined ? undefined : { ms: Math.max(0, Math.round(ms)), ...(atMs === undefined ? {} : { atMs }) },
	};
}

/** A window: its reset, its first answer here, the request it opened after (this process's last of the window before,
 * or the one that opened it) and this process's last request in it. */
type Window = { resetAtMs?: number; firstAt: number; openedAfter: number; lastSent: number };

export class RateController {
	private inFlight = 0;
	private pausedUntil = 0;
	private lastUsed = Date.now();
	private limit?: number;
	private window?: Window;
	/** What is left of the window as seen here (its lowest count), this process's answers in it, and when it last told
	 * the count and the window's end: unknown after a pause, and once that window is over. */
	private count?: { low: number; top: number; own: number; toldAt: number; endsAt?: number };
	private spenders = 1;
	private shortestMs = 0;
	private longestMs = Number.POSITIVE_INFINITY;
	private bounded = 0;
	private lastOpening?: number;
	private pace?: { rate: number; fromWindow: boolean };
	private lastTurn = Number.NEGATIVE_INFINITY;
	/** The requests waiting for a turn of the pace, numbered as they came (ascending): who is before whom. */
	private readonly turnQueue: number[] = [];
	private arrivals = 0;
	private heldAt = Number.NEGATIVE_INFINITY;
	private cutAt = Number.NEGATIVE_INFINITY;
	private answered: number[] = [];
	/** Requests waiting, and whether each waits for room (woken by every answer). */
	private readonly sleepers = new Map<AbortController, boolean>();

	/** Resolves when the request may go: after a wait the ERP named (WaitTooLong past `maxPauseMs`), with room in its
	 * share of the window's count, at its turn of the pace; WaitTooLong as well once it could not go before `deadlineAt`,
	 * at once when the turns of the requests waiting before it already take it past. A cancelled run (`signal`, then
	 * `wake`) rejects at once. */
	async admit(maxPauseMs: number, signal?: AbortSignal, deadlineAt = Number.POSITIVE_INFINITY): Promise<Ticket> {
		let pausedMs = 0;
		let place: number | undefined;
		try {
			for (;;) {
				if (signal?.aborted) throw signal.reason;
				const now = Date.now();
				const pause = this.pausedUntil - now;
				if (pause > 0 && pausedMs + pause > maxPauseMs) throw new WaitTooLong(pause);
				const forRoom = pause <= 0 && this.full(now);
				// The pace's turn is taken when it answers 0: asked last.
				const wait = pause > 0 ? pause : forRoom ? RECHECK_MS : this.turn(now);
				const forTurn = pause <= 0 && !forRoom && wait > 0;
				if (forTurn) place ??= this.queueForTurn();
				const expected = forTurn && place !== undefined ? wait + this.turnsAhead(place) * this.interval() : wait;
				if (wait > 0 && now + (forRoom ? 0 : expected) >= deadlineAt) throw new WaitTooLong(expected, pause > 0);
				// Woken late (a busy process), it would go with no time left for an answer: it would only spend the ERP's limit.
				if (wait <= 0 && now >= deadlineAt) throw new WaitTooLong(0, false);
				if (wait <= 0) {
					this.inFlight++;
					this.lastUsed = now;
					return { sentAt: now, pausedMs };
				}
				await this.nap(wait, forRoom);
				if (pause > 0) pausedMs += Date.now() - now;
			}
		} finally {
			if (place !== undefined) this.leaveTurns(place);
		}
	}

	/** After the request: what its answer tells (nothing, when it failed on the way). */
	learn(ticket: Ticket, answer?: { statusCode: number; limits: RateHeaders }): void {
		this.inFlight--;
		const now = Date.now();
		this.lastUsed = now;
		if (answer?.statusCode === 429) this.refused(ticket.sentAt, answer.limits, now);
		else if (answer) this.accepted(ticket.sentAt, answer.statusCode, answer.limits, now);
		this.wake(true);
	}

	/** Ends waits early, to look again: those for room (`forRoom`), or all (a run was cancelled). */
	wake(forRoom = false): void {
		for (const [sleeper, waitsForRoom] of this.sleepers) if (waitsForRoom || !forRoom) sleeper.abort();
	}

	/** Nothing in flight, held or waiting, and nothing has been for IDLE_MS. */
	idle(now: number): boolean {
		return this.inFlight === 0 && this.sleepers.size === 0 && this.pausedUntil <= now && now - this.lastUsed >= IDLE_MS;
	}

	private async nap(ms: number, forRoom: boolean): Promise<void> {
		const sleeper = new AbortController();
		this.sleepers.set(sleeper, forRoom);
		// Timers count whole milliseconds. Woken early (aborted), the caller looks again.
		await sleep(Math.ceil(ms), sleeper.signal).catch(() => undefined);
		this.sleepers.delete(sleeper);
	}

	/** The share of the window's count this process plans to spend. */
	private share(): number {
		return Math.min(1, 1 / this.spenders + FAIR_GROWTH);
	}

	/** No room now: the cap in flight, or this process's share of what is left is on the wire already. */
	private full(now: number): boolean {
		if (this.inFlight >= CONCURRENCY_LIMIT) return true;
		if (this.count && this.countOver(now)) this.closeCount();
		return this.count !== undefined && this.inFlight > 0 && this.count.low * this.share() <= this.inFlight;
	}

	private queueForTurn(): number {
		this.turnQueue.push(++this.arrivals);
		return this.arrivals;
	}

	private leaveTurns(place: number): void {
		this.turnQueue.splice(this.turnsAhead(place), 1);
	}

	/** How many requests waiting for a turn came before `place` (turns go about in that order: timers fire as set). */
	private turnsAhead(place: number): number {
		let low = 0;
		let high = this.turnQueue.length;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.turnQueue[middle] < place) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	private interval(): number {
		return this.pace ? 1000 / this.pace.rate : 0;
	}

	/** A count tells of one window: once the end it named is past (a second late at most, as rounded), or a longer
	 * window than is learnt has gone by without a count, it says nothing of the next, which may never come. */
	private countOver(now: number): boolean {
		const { toldAt, endsAt } = this.count!;
		return endsAt === undefined ? now - toldAt > MAX_LEARNT_WINDOW_MS : now > endsAt + ROUNDING_MS;
	}

	/** 0 when a request may go now (its turn is taken), else how long until the next turn. */
	private turn(now: number): number {
		if (!this.pace) return 0;
		if (this.pace.fromWindow && now - this.heldAt > WINDOW_PACE_IDLE_MS) {
			this.pace = undefined;
			return 0;
		}
		const interval = this.interval();
		const wait = this.lastTurn + interval - now;
		if (wait > 0) {
			this.heldAt = now;
			return wait;
		}
		// A turn taken late by less than an interval (a timer firing late) keeps the schedule; after a pause it restarts.
		this.lastTurn = wait > -interval ? this.lastTurn + interval : now;
		return 0;
	}

	private pauseUntil(at: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.closeCount();
	}

	private refused(sentAt: number, { remaining, resetAtMs, wait }: RateHeaders, now: number): void {
		if (resetAtMs !== undefined && resetAtMs === this.window?.resetAtMs) this.shortestMs = Math.max(this.shortestMs, sentAt - this.window.firstAt);
		if (remaining !== undefined) return this.pauseUntil(now + (wait?.ms ?? UNNAMED_PAUSE_MS));
		// No count: the refusals set the pace. The first ends a burst, holding all; once paced, it cuts the pace.
		const paced = this.pace !== undefined;
		this.cut(sentAt, now);
		if (!paced) this.pauseUntil(now + (wait?.ms ?? UNNAMED_PAUSE_MS));
		else if (wait) this.pauseUntil(now + wait.ms - ROUNDING_MS);
	}

	/** Multiplicative decrease, at most once a CUT_EVERY_MS, from the pace achieved when none was set. */
	private cut(sentAt: number, now: number): void {
		if (sentAt < this.cutAt || now - this.cutAt < CUT_EVERY_MS) return;
		const achieved = this.answered.filter((at) => at > now - 1000).length;
		// A refusal with nothing answered before it tells no pace.
		if (!this.pace && achieved === 0) return;
		this.pace = { rate: Math.max(MIN_RATE, DECREASE * (this.pace?.rate ?? achieved)), fromWindow: false };
		this.cutAt = now;
		this.lastTurn = Math.max(this.lastTurn, now);
	}

	private accepted(sentAt: number, statusCode: number, limits: RateHeaders, now: number): void {
		this.answered.push(now);
		while (this.answered[0] <= now - 1000) this.answered.shift();
		// Additive increase while the pace holds requests back, faster the longer since the last cut.
		const pace = this.pace;
		if (pace && !pace.fromWindow && now - this.heldAt < 2000 / pace.rate) pace.rate += (INCREASE_PER_S * Math.max(1, (now - this.cutAt) / 1000)) / pace.rate;

		const { remaining, limit, resetAtMs, wait } = limits;
		if (remaining === undefined) return;
		if (limit !== undefined) this.limit = limit;
		const fresh = this.observeWindow(remaining, resetAtMs, sentAt, now);
		// Answers during a pause were counted in the window that was refused.
		if (now < this.pausedUntil) return;
		if (fresh || !this.count) {
			this.closeCount();
			this.count = { low: remaining, top: remaining, own: 0, toldAt: now };
		}
		this.count.low = Math.min(this.count.low, remaining);
		this.count.top = Math.max(this.count.top, remaining);
		this.count.own++;
		this.count.toldAt = now;
		const endsAt = resetAtMs ?? (wait && now + wait.ms);
		if (endsAt !== undefined) this.count.endsAt = Math.max(this.count.endsAt ?? endsAt, endsAt);
		const left = this.count.low;
		const lengthMs = this.windowMs(true);
		if (lengthMs && (left === 0 || this.pace?.fromWindow)) {
			const rate = this.windowPace(left, lengthMs, (this.windowEnd(true) ?? now) - now);
			if (rate !== undefined) {
				if (!this.pace?.fromWindow) this.heldAt = now;
				this.pace = { rate: Math.max(MIN_RATE, rate), fromWindow: true };
			}
		}
		// None of what is left is this process's: wait for the window's end when the answer tells it.
		const noneMine = left === 0 || (this.pace?.fromWindow && left * this.share() < 1);
		if (!noneMine || statusCode >= 300 || !wait) return;
		const resumeAt = wait.atMs === undefined ? now + wait.ms : this.windowEnd();
		if (resumeAt !== undefined && resumeAt > now) this.pauseUntil(resumeAt);
	}

	/** This process's share of what is left over the time left (n requests, n + 1 intervals); past the window's
	 * expected end, the whole window's rate, shared. */
	private windowPace(left: number, lengthMs: number, msLeft: number): number | undefined {
		const mine = left * this.share();
		if (mine >= 1 && msLeft > 0) return (mine + 1) / (msLeft / 1000);
		return this.limit === undefined ? undefined : (this.limit * 1000) / lengthMs / this.spenders;
	}

	/** From this window's count: about (count spent) / (own answers) processes spend it. */
	private closeCount(): void {
		const seen = this.count;
		this.count = undefined;
		if (!seen || seen.own < MIN_ANSWERS_FOR_SHARE) return;
		const measured = Math.min(MAX_SPENDERS, Math.max(1, (seen.top - seen.low + 1) / seen.own));
		// Fewer is taken at once: a process left alone uses the whole window from the next one on.
		this.spenders = measured < this.spenders ? measured : (this.spenders + measured) / 2;
	}

	/** Follows the ERP's windows; true when the answer opened one. A window opens after this process's last request of
	 * the one before, by its first answer here: it lasts at most its reset minus that request, and at least until the
	 * whole second before an epoch reset and until a request it refused was sent. */
	private observeWindow(remaining: number, resetAtMs: number | undefined, sentAt: number, answeredAt: number): boolean {
		const opened = this.limit !== undefined && remaining === this.limit - 1;
		if (opened && resetAtMs !== undefined) {
			if (this.lastOpening !== undefined && sentAt > this.lastOpening) this.longestMs = Math.min(this.longestMs, answeredAt - this.lastOpening);
			this.lastOpening = sentAt;
		}
		const current = this.window;
		const named = resetAtMs !== undefined && current?.resetAtMs !== undefined;
		// An answer naming an earlier reset was counted in a window already over.
		if (named && resetAtMs < (current.resetAtMs ?? 0)) return false;
		const later = named ? resetAtMs > (current.resetAtMs ?? 0) : remaining > (this.count?.low ?? remaining) + Math.max(1, this.inFlight);
		if (current && !opened && !later) {
			current.lastSent = Math.max(current.lastSent, sentAt);
			return false;
		}
		const openedAfter = opened ? sentAt : current?.lastSent;
		if (resetAtMs !== undefined) {
			if (openedAfter !== undefined) {
				this.longestMs = Math.min(this.longestMs, resetAtMs - openedAfter);
				this.bounded++;
			}
			this.shortestMs = Math.max(this.shortestMs, resetAtMs - 1000 - answeredAt);
		}
		this.window = { resetAtMs, firstAt: answeredAt, openedAfter: openedAfter ?? answeredAt, lastSent: sentAt };
		return true;
	}

	/** The window's length: the one whole second its bounds leave (the common choice), else its upper bound once two
	 * windows bounded it (one, `roughly`, for pacing: a pace too fast is caught by the count, a short hold is not). */
	private windowMs(roughly = false): number | undefined {
		if (!(this.bounded >= 1 && this.longestMs > 0 && this.longestMs <= MAX_LEARNT_WINDOW_MS)) return undefined;
		if (this.shortestMs >= this.longestMs) return undefined;
		const whole = Math.floor(this.longestMs / 1000) * 1000;
		if (whole > this.shortestMs && whole - 1000 <= this.shortestMs) return whole;
		return this.bounded >= (roughly ? 1 : 2) ? this.longestMs : undefined;
	}

	/** The latest the window seen now can end (a length after its first answer here); `expected`, for pacing: a length
	 * after it opened (too early is safe: the latest end still holds). */
	private windowEnd(expected = false): number | undefined {
		const length = this.windowMs(expected);
		if (!this.window?.resetAtMs || length === undefined) return undefined;
		return Math.min(this.window.resetAtMs, (expected ? this.window.openedAfter : this.window.firstAt) + length);
	}
}

const controllers = new Map<string, RateController>();

/** An ERP: its Base URL and a hash of the token, so that no token is held in clear as a key. */
export function erpKey(baseUrl: string, token: unknown): string {
	return `${baseUrl} ${createHash('sha256').update(typeof token === 'string' ? token : '').digest('hex')}`;
}

/** The controller of an ERP (erpKey), for all three nodes (n8n loads them with one module cache); idle ones are
 * dropped at the next lookup. */
export function rateControllerFor(key: string): RateController {
	const now = Date.now();
	for (const [other, controller] of controllers) if (other !== key && controller.idle(now)) controllers.delete(other);
	let controller = controllers.get(key);
	if (!controller) {
		controller = new RateController();
		controllers.set(key, controller);
	}
	return controller;
}
