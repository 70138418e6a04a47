import type { FaultSpec } from '../../sandbox/faults';
import type { ReliabilitySession } from '../support/session';

/**
 * Faults queued in the sandbox for single records: the next `times` requests of `method` to an item's record
 * get `fault`. Used where the random knobs cannot do it (a 429 without Retry-After, a delay on some requests).
 */
export interface RecordFaults {
	method: 'GET' | 'PUT' | 'DELETE';
	fault: FaultSpec;
	/** Per input item, how many requests for its record the fault answers (0: none); see recordPlan. */
	plan: (items: number) => number[];
}

/** `count` distinct random indices below `below`, none of them in `taken`. */
function randomIndices(below: number, count: number, taken: Set<number>): number[] {
	const free = Array.from({ length: below }, (_, i) => i).filter((i) => !taken.has(i));
	if (count > free.length) throw new Error(`cannot pick ${count} of ${free.length} items`);
	for (let i = free.length - 1; i > 0; i--) {
		const j = Math.floor(Math.random() * (i + 1));
		[free[i], free[j]] = [free[j], free[i]];
	}
	return free.slice(0, count);
}

/** Per input item, how often its record is faulted: each group's `count` items, picked at random among the first `within` (default all). */
export function recordPlan(items: number, groups: Array<{ count: number; times: number; within?: number }>): number[] {
	const plan = new Array<number>(items).fill(0);
	const taken = new Set<number>();
	for (const { count, times, within = items } of groups) {
		for (const index of randomIndices(within, count, taken)) {
			plan[index] = times;
			taken.add(index);
		}
	}
	return plan;
}

/** Queues the faults of the plan for the records the items are about; answers how many requests they will strike. */
export async function queueRecordFaults(session: ReliabilitySession, faults: RecordFaults, recordIds: number[]): Promise<number> {
	const plan = faults.plan(recordIds.length);
	let strikes = 0;
	for (const [i, times] of plan.entries()) {
		if (times === 0) continue;
		await session.sandbox.queueFault({ match: { method: faults.method, path: `/contacts/${recordIds[i]}` }, fault: faults.fault, times });
		strikes += times;
	}
	return strikes;
}
