import type { IPollFunctions } from 'n8n-workflow';

/**
 * The share of n8n's poll budget after which no new request starts: the rest is for the requests in flight, the
 * comparison and n8n saving the memory. A poll past the budget is abandoned and its memory not saved.
 */
const USABLE_SHARE = 0.75;

/** Whether this poll should stop starting requests that can wait for the next poll. */
export interface PollBudget {
	/** The whole budget in ms; undefined on n8n 1.123. */
	totalMs?: number;
	nearlyUsed(): boolean;
	/** Whether the poll ran past its whole budget (n8n may then have abandoned it). */
	exceeded(): boolean;
}

/**
 * n8n 2.41's getPollBudgetMs() (under the durable scheduler its poll timeout less a margin, 36 s at 45 s; else 5
 * minutes), counted from now. n8n 1.123 has no such function and no deadline: the budget is never used up.
 */
export function pollBudget(poll: IPollFunctions, now: () => number = Date.now): PollBudget {
	const { getPollBudgetMs } = poll as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>;
	if (typeof getPollBudgetMs !== 'function') return { nearlyUsed: () => false, exceeded: () => false };
	const totalMs = getPollBudgetMs.call(poll);
	const startedAt = now();
	return { totalMs, nearlyUsed: () => now() >= startedAt + totalMs * USABLE_SHARE, exceeded: () => now() >= startedAt + totalMs };
}
