import type { PollState } from './state';

/**
 * The memory each trigger's last reporting poll in this process handed to n8n with its execution, by workflow and
 * node. Under n8n 2.41's durable poll cursors n8n saves it when it creates that execution, after the poll returned;
 * a poll that starts before (two Poll Times due at once after a restart, a scheduled poll right after publishing)
 * reads the memory saved before and would report the same records again. It takes this one instead.
 */
const handedOver = new Map<string, { state: PollState; at: number }>();

/**
 * How long a handed-over memory is preferred: n8n saves it within seconds. Past that it is taken as never saved (the
 * execution was not created), and the memory n8n has is used again: its records are then reported again, not lost.
 */
const TRUST_MS = 60_000;

const generationOf = (state: PollState | undefined) => state?.generation ?? 0;

/** The memory to compare with: the one n8n gave, or a later one this process handed over that n8n may not have saved yet. */
export function newestMemory(trigger: string, saved: PollState | undefined, key: string, now: number): PollState | undefined {
	const recent = handedOver.get(trigger);
	if (!recent || now - recent.at > TRUST_MS || recent.state.key !== key) return saved;
	return generationOf(recent.state) > generationOf(saved) ? recent.state : saved;
}

/** The memory a poll hands over with the execution it starts (its generation one above the one it compared with). */
export function handOver(trigger: string, state: PollState, now: number): void {
	handedOver.set(trigger, { state, at: now });
}
