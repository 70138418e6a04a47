import { createHash } from 'crypto';
import { sleep } from 'n8n-workflow';

import type { NamedWait, RawResponse } from './types';
import { CONCURRENCY_LIMIT } from './types';

// One RateController per ERP, shared by every run in the process: `admit` before a request, `learn` after it. A request
// is held by a pause the ERP named (a 429's wait), no room in the window its headers count, or the pace's next turn.

/** What an answer says of the limit: the count left, the window's size and its reset (an epoch instant), the wait it names. */
export type RateHeaders = { remaining?: number; limit?: number; resetAtMs?: number; wait?: NamedWait };

/** An admitted request: when it went, and how long a wait the ERP named held it (it counts toward its wait budget). */
export type Ticket = { sentAt: number; pausedMs: number };

/** From `admit`: a wait the ERP named is longer than the request may still wait (`named`), or its turn is past its deadline. */
export class WaitTooLong extends Error {
	constructor(readonly ms: number, readonly named = true) {
		super(named ? `the ERP asks to wait ${ms} ms` : `the next turn of the ERP's pace is ${ms} ms away`);
	}
}

// A refusal naming no wait holds all a second (the usual window); a wait named in whole seconds may be a second late.
const [UNNAMED_PAUSE_MS, ROUNDING_MS] = [1_000, 1_000];
// Refusals cut the pace to 0.85 at most once a second (later ones echo the same overshoot); it grows by about 2 a
// second more in the first second after a cut, n times that n seconds after; never below 1 a second.
const [DECREASE, CUT_EVERY_MS, INCREASE_PER_S, MIN_RATE] = [0.85, 1_000, 2, 1];
// A window's pace idle 2 s is dropped (its burst is over); a process plans its last share of a window and 5 % more
// (toward fair shares), measured from 5 answers; a longer window than a minute is left to its 429; a controller idle a
// minute is dropped; a request waiting for room looks again after a second at most.
const [WINDOW_PACE_IDLE_MS, FAIR_GROWTH, MIN_ANSWERS_FOR_SHARE, MAX_SPENDERS] = [2_000, 0.05, 5, 16];
const [MAX_LEARNT_WINDOW_MS, IDLE_MS, RECHECK_MS] = [60_000, 60_000, 1_000];

const header = (headers: RawResponse['headers'], ...names: string[]): string | undefined => names.map((name) => [headers[name]].flat()[0]?.trim()).find((text) => text);
const count = (text?: string) => (text && /^\d+$/.test(text) ? Number(text) : undefined);

/** (X-)RateLimit-*, as the document names none; the wait from Retry-After (seconds, HTTP date), else the reset (epoch s, or s). */
export function readRateHeaders(headers: RawResponse['headers'], now: number): RateHeaders {
	const seconds = (text?: string) => (text && /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : undefined);
	const retryAfter = header(headers, 'retry-after');
	const reset = seconds(header(headers, 'x-ratelimit-reset', 'ratelimit-reset'));
	const resetAtMs = reset !== undefined && reset > 1e12 ? reset : undefined;
	const afterMs = seconds(retryAfter);
	const date = retryAfter && afterMs === undefined ? Date.parse(retryAfter) : Number.NaN;
	const atMs = Number.isNaN(date) ? (afterMs === undefined ? resetAtMs : undefined) : date;
	const ms = afterMs ?? (atMs === undefined ? reset : atMs - now);
	const wait = ms === undefined ? undefined : { ms: Math.max(0, Math.round(ms)), ...(atMs === undefined ? {} : { atMs }) };
	return { remaining: count(header(headers, 'x-ratelimit-remaining', 'ratelimit-remaining')), limit: count(header(headers, 'x-ratelimit-limit', 'ratelimit-limit')), resetAtMs, wait };
}

/** The pace: a turn every 1/rate s, taken in the order the requests came; cut by refusals, grown while it holds some back. */
class Pace {
	current?: { rate: number; fromWindow: boolean };
	/** The requests waiting for a turn, in the order they came (turns go about in that order: timers fire as set). */
	readonly waiting: object[] = [];
	private lastTurn = Number.NEGATIVE_INFINITY;
	private heldAt = Number.NEGATIVE_INFINITY;
	private cutAt = Number.NEGATIVE_INFINITY;
	private answered: number[] = []; // when the answers of the last second came

	interval(): number {
		return this.current ? 1000 / this.current.rate : 0;
	}
	/** 0 when a request may go now (its turn is taken), else how long until the next turn. */
	turn(now: number): number {
		if (this.current?.fromWindow && now - this.heldAt > WINDOW_PACE_IDLE_MS) this.current = undefined;
		if (!this.current) return 0;
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
	/** An answer that was no refusal: additive increase while the pace holds requests back, faster the longer since the last cut. */
	accepted(now: number): void {
		this.answered.push(now);
		while (this.answered[0] <= now - 1000) this.answered.shift();
		const pace = this.current;
		if (pace && !pace.fromWindow && now - this.heldAt < 2000 / pace.rate) pace.rate += (INCREASE_PER_S * Math.max(1, (now - this.cutAt) / 1000)) / pace.rate;
	}
	/** Multiplicative decrease, at most once a CUT_EVERY_MS, from the pace achieved when none was set. */
	cut(sentAt: number, now: number): void {
		if (sentAt < this.cutAt || now - this.cutAt < CUT_EVERY_MS) return;
		const achieved = this.answered.filter((at) => at > now - 1000).length;
		// A refusal with nothing answered before it tells no pace.
		if (!this.current && achieved === 0) return;
		this.current = { rate: Math.max(MIN_RATE, DECREASE * (this.current?.rate ?? achieved)), fromWindow: false };
		this.cutAt = now;
		this.lastTurn = Math.max(this.lastTurn, now);
	}
	/** The pace that spreads what is left of a window over its time. */
	spread(rate: number, now: number): void {
		if (!this.current?.fromWindow) this.heldAt = now;
		this.current = { rate: Math.max(MIN_RATE, rate), fromWindow: true };
	}
}

/** The window the ERP counts, as its headers show it: what is left, how long a window lasts, how many processes spend it. */
class WindowCount {
	private limit?: number;
	/** The window seen now: its reset, its first answer here, the request it opened after (this process's last of the one
	 * before, or the one that opened it), this process's last request in it. */
	private window?: { resetAtMs?: number; firstAt: number; openedAfter: number; lastSent: number };
	/** Its count as seen here (lowest, highest), this process's answers in it, when it last told the count, its end. */
	private count?: { low: number; top: number; own: number; toldAt: number; endsAt?: number };
	/** How many processes spend the window; the bounds of its length (and how many windows bounded it from above). */
	private spenders = 1;
	private shortestMs = 0;
	private longestMs = Number.POSITIVE_INFINITY;
	private bounded = 0;
	private lastOpening?: number;

	/** The share of the window's count this process plans to spend. */
	share(): number {
		return Math.min(1, 1 / this.spenders + FAIR_GROWTH);
	}
	/** This process's share of what is left is on the wire. A count tells of one window: it is forgotten once the end it
	 * named is past (a second late at most) or, naming none, a longer window than is learnt went by without another. */
	full(inFlight: number, now: number): boolean {
		if (this.count && (this.count.endsAt === undefined ? now - this.count.toldAt > MAX_LEARNT_WINDOW_MS : now > this.count.endsAt + ROUNDING_MS)) this.close();
		return this.count !== undefined && inFlight > 0 && this.count.low * this.share() <= inFlight;
	}
	/** Forgets the count; from it, about (count spent) / (own answers) processes spend the window. */
	close(): void {
		const seen = this.count;
		this.count = undefined;
		if (!seen || seen.own < MIN_ANSWERS_FOR_SHARE) return;
		const measured = Math.min(MAX_SPENDERS, Math.max(1, (seen.top - seen.low + 1) / seen.own));
		// Fewer is taken at once: a process left alone uses the whole window from the next one on.
		this.spenders = measured < this.spenders ? measured : (this.spenders + measured) / 2;
	}
	/** The window seen now lasted at least from its first answer here to the sending of a request it refused. */
	refused(sentAt: number, resetAtMs?: number): void {
		if (resetAtMs !== undefined && resetAtMs === this.window?.resetAtMs) this.shortestMs = Math.max(this.shortestMs, sentAt - this.window.firstAt);
	}
	/** An accepted answer's count: what is left of the window (undefined when it told none, or came during a pause). */
	counted({ remaining, limit, resetAtMs, wait }: RateHeaders, sentAt: number, now: number, inFlight: number, paused: boolean): number | undefined {
		if (remaining === undefined) return undefined;
		if (limit !== undefined) this.limit = limit;
		const fresh = this.observe(remaining, resetAtMs, sentAt, now, inFlight);
		// Answers during a pause were counted in the window that was refused.
		if (paused) return undefined;
		if (fresh) this.close();
		const { low, top, own, endsAt } = this.count ?? { low: remaining, top: remaining, own: 0, endsAt: undefined };
		const ends = resetAtMs ?? (wait && now + wait.ms);
		this.count = { low: Math.min(low, remaining), top: Math.max(top, remaining), own: own + 1, toldAt: now, endsAt: ends === undefined ? endsAt : Math.max(endsAt ?? ends, ends) };
		return this.count.low;
	}
	/** This process's share of what is left over the time left (n requests, n + 1 intervals); past its end, the window's rate. */
	pace(left: number, now: number): number | undefined {
		const lengthMs = this.lengthMs(true);
		if (!lengthMs) return undefined;
		const mine = left * this.share();
		const msLeft = (this.end(true) ?? now) - now;
		if (mine >= 1 && msLeft > 0) return (mine + 1) / (msLeft / 1000);
		return this.limit === undefined ? undefined : (this.limit * 1000) / lengthMs / this.spenders;
	}
	/** The latest the window can end (a length after its first answer here); `expected`: a length after it opened (earlier). */
	end(expected = false): number | undefined {
		const length = this.lengthMs(expected);
		if (!this.window?.resetAtMs || length === undefined) return undefined;
		return Math.min(this.window.resetAtMs, (expected ? this.window.openedAfter : this.window.firstAt) + length);
	}
	/** Follows the ERP's windows; true when the answer opened one. A window opens after this process's last request of
	 * the one before, by its first answer here: it lasts at most its reset minus that request, and at least until the
	 * whole second before an epoch reset and until a request it refused was sent. */
	private observe(remaining: number, resetAtMs: number | undefined, sentAt: number, answeredAt: number, inFlight: number): boolean {
		const opened = this.limit !== undefined && remaining === this.limit - 1;
		if (opened && resetAtMs !== undefined && this.lastOpening !== undefined && sentAt > this.lastOpening) this.longestMs = Math.min(this.longestMs, answeredAt - this.lastOpening);
		if (opened && resetAtMs !== undefined) this.lastOpening = sentAt;
		const current = this.window;
		const named = resetAtMs !== undefined && current?.resetAtMs !== undefined;
		// An answer naming an earlier reset was counted in a window already over.
		if (named && resetAtMs < (current.resetAtMs ?? 0)) return false;
		const later = named ? resetAtMs > (current.resetAtMs ?? 0) : remaining > (this.count?.low ?? remaining) + Math.max(1, inFlight);
		if (current && !opened && !later) {
			current.lastSent = Math.max(current.lastSent, sentAt);
			return false;
		}
		const openedAfter = opened ? sentAt : current?.lastSent;
		if (resetAtMs !== undefined && openedAfter !== undefined) [this.longestMs, this.bounded] = [Math.min(this.longestMs, resetAtMs - openedAfter), this.bounded + 1];
		if (resetAtMs !== undefined) this.shortestMs = Math.max(this.shortestMs, resetAtMs - 1000 - answeredAt);
		this.window = { resetAtMs, firstAt: answeredAt, openedAfter: openedAfter ?? answeredAt, lastSent: sentAt };
		return true;
	}
	/** The window's length: the one whole second its bounds leave (the common choice), else its upper bound once two
	 * windows bounded it (one, `roughly`, for pacing: a pace too fast is caught by the count, a short hold is not). */
	private lengthMs(roughly = false): number | undefined {
		if (!(this.bounded >= 1 && this.longestMs > 0 && this.longestMs <= MAX_LEARNT_WINDOW_MS)) return undefined;
		if (this.shortestMs >= this.longestMs) return undefined;
		const whole = Math.floor(this.longestMs / 1000) * 1000;
		if (whole > this.shortestMs && whole - 1000 <= this.shortestMs) return whole;
		return this.bounded >= (roughly ? 1 : 2) ? this.longestMs : undefined;
	}
}

export class RateController {
	private inFlight = 0;
	private pausedUntil = 0;
	private lastUsed = Date.now();
	private readonly window = new WindowCount();
	private readonly pace = new Pace();
	/** Requests waiting, and whether each waits for room (woken by every answer). */
	private readonly sleepers = new Map<AbortController, boolean>();

	/** Resolves when nothing holds the request; WaitTooLong past `maxPauseMs` of named waits, or (at once, counting the turns
	 * of those before it) past `deadlineAt`. A cancelled run (`signal`, then `wake`) rejects at once. */
	async admit(maxPauseMs: number, signal?: AbortSignal, deadlineAt = Number.POSITIVE_INFINITY): Promise<Ticket> {
		let pausedMs = 0;
		let place: object | undefined;
		try {
			for (;;) {
				if (signal?.aborted) throw signal.reason;
				const now = Date.now();
				const hold = this.hold(now);
				if (!hold) {
					// Woken late (a busy process), it would go with no time left for an answer: it would only spend the ERP's limit.
					if (now >= deadlineAt) throw new WaitTooLong(0, false);
					this.inFlight++;
					this.lastUsed = now;
					return { sentAt: now, pausedMs };
				}
				if (hold.by === 'pause' && pausedMs + hold.ms > maxPauseMs) throw new WaitTooLong(hold.ms);
				if (hold.by === 'turn' && !place) this.pace.waiting.push((place = {}));
				// Its turn comes after those of the requests waiting before it; room may come with any answer.
				const expected = hold.by === 'turn' ? hold.ms + this.pace.waiting.indexOf(place as object) * this.pace.interval() : hold.ms;
				if (now + (hold.by === 'room' ? 0 : expected) >= deadlineAt) throw new WaitTooLong(expected, hold.by === 'pause');
				await this.nap(hold.ms, hold.by === 'room');
				if (hold.by === 'pause') pausedMs += Date.now() - now;
			}
		} finally {
			if (place) this.pace.waiting.splice(this.pace.waiting.indexOf(place), 1);
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
	/** What holds a request now: a named pause, no room (the cap, or its share of the window on the wire), the pace's turn. */
	private hold(now: number): { by: 'pause' | 'room' | 'turn'; ms: number } | undefined {
		const pause = this.pausedUntil - now;
		if (pause > 0) return { by: 'pause', ms: pause };
		if (this.inFlight >= CONCURRENCY_LIMIT || this.window.full(this.inFlight, now)) return { by: 'room', ms: RECHECK_MS };
		const turn = this.pace.turn(now);
		return turn > 0 ? { by: 'turn', ms: turn } : undefined;
	}
	private async nap(ms: number, forRoom: boolean): Promise<void> {
		const sleeper = new AbortController();
		this.sleepers.set(sleeper, forRoom);
		// Timers count whole milliseconds. Woken early (aborted), the caller looks again.
		await sleep(Math.ceil(ms), sleeper.signal).catch(() => undefined);
		this.sleepers.delete(sleeper);
	}
	private pauseUntil(at: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, at);
		this.window.close();
	}
	private refused(sentAt: number, { remaining, resetAtMs, wait }: RateHeaders, now: number): void {
		this.window.refused(sentAt, resetAtMs);
		if (remaining !== undefined) return this.pauseUntil(now + (wait?.ms ?? UNNAMED_PAUSE_MS));
		// No count: the refusals set the pace. The first ends a burst, holding all; once paced, it cuts the pace.
		const paced = this.pace.current !== undefined;
		this.pace.cut(sentAt, now);
		if (!paced) this.pauseUntil(now + (wait?.ms ?? UNNAMED_PAUSE_MS));
		else if (wait) this.pauseUntil(now + wait.ms - ROUNDING_MS);
	}
	private accepted(sentAt: number, statusCode: number, limits: RateHeaders, now: number): void {
		this.pace.accepted(now);
		const left = this.window.counted(limits, sentAt, now, this.inFlight, now < this.pausedUntil);
		if (left === undefined) return;
		const rate = left === 0 || this.pace.current?.fromWindow ? this.window.pace(left, now) : undefined;
		if (rate !== undefined) this.pace.spread(rate, now);
		// None of what is left is this process's: wait for the window's end when the answer tells it.
		const noneMine = left === 0 || (this.pace.current?.fromWindow && left * this.window.share() < 1);
		const { wait } = limits;
		if (!noneMine || statusCode >= 300 || !wait) return;
		const resumeAt = wait.atMs === undefined ? now + wait.ms : this.window.end();
		if (resumeAt !== undefined && resumeAt > now) this.pauseUntil(resumeAt);
	}
}

const controllers = new Map<string, RateController>();

/** An ERP: its Base URL and a hash of the token, so that no token is held in clear as a key. */
export const erpKey = (baseUrl: string, token: unknown): string => `${baseUrl} ${createHash('sha256').update(typeof token === 'string' ? token : '').digest('hex')}`;

/** The controller of an ERP (erpKey), for all three nodes (one module cache); idle ones are dropped at the next lookup. */
export function rateControllerFor(key: string): RateController {
	const now = Date.now();
	for (const [other, controller] of controllers) if (other !== key && controller.idle(now)) controllers.delete(other);
	const controller = controllers.get(key) ?? new RateController();
	controllers.set(key, controller);
	return controller;
}
