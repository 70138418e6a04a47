import type { FaultSpec } from '../../../sandbox/faults';
import type { Random } from '../../../sandbox/seed/random';
import { shuffled, type ReliabilitySession } from '../setup/context';

/** `count` items whose record the fault answers `times` times, picked among the first `within` items (default all). */
export interface RecordFaultGroup {
	count: number;
	times: number;
	within?: number;
}

/**
 * Faults queued in the sandbox for single records: the next `times` requests of `method` to a picked item's
 * record get `fault`. Used where the random knobs cannot do it (a 429 without Retry-After, a delay on some requests).
 */
export interface RecordFaults {
	method: 'GET' | 'PUT' | 'DELETE';
	fault: FaultSpec;
	groups: RecordFaultGroup[];
}

/** `count` distinct indices below `below`, none of them in `taken`, drawn from `random`. */
function pickIndices(below: number, count: number, taken: Set<number>, random: Random): number[] {
	const free = Array.from({ length: below }, (_, i) => i).filter((i) => !taken.has(i));
	if (count > free.length) throw new Error(`cannot pick ${count} of ${free.length} items`);
	return shuffled(free, random).slice(0, count);
}

/** Per input item, how often its record is faulted (0: never); the same `random` seed gives the same plan. */
export function recordPlan(items: number, groups: RecordFaultGroup[], random: Random): number[] {
	const plan = new Array<number>(items).fill(0);
	const taken = new Set<number>();
	for (const { count, times, within = items } of groups) {
		for (const index of pickIndices(within, count, taken, random)) {
			plan[index] = times;
			taken.add(index);
		}
	}
	return plan;
}

/** Queues the faults of the plan for the records the items are about; answers how many requests they will strike. */
export async function queueRecordFaults(session: ReliabilitySession, faults: RecordFaults, recordIds: number[], random: Random): Promise<number> {
	const plan = recordPlan(recordIds.length, faults.groups, random);
	let strikes = 0;
	for (const [i, times] of plan.entries()) {
		if (times === 0) continue;
		await session.sandbox.queueFault({ match: { method: faults.method, path: `/contacts/${recordIds[i]}` }, fault: faults.fault, times });
		strikes += times;
	}
	return strikes;
}
