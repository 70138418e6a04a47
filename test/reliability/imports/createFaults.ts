import type { FaultSpec } from '../../../sandbox/faults';
import type { Random } from '../../../sandbox/seed/random';
import { shuffled } from '../faults/recordFaults';
import type { ReliabilitySession } from '../setup/context';
import type { CreateFault } from './scenarios';

/** How many of the run's creates each fault strikes: its share of them, exactly. */
export const strikesOf = (creates: number, { share }: CreateFault) => Math.round(creates * share);

/** The fault of each POST in the order they arrive (null: none), in an order drawn from `random`. */
export function createFaultPlan(creates: number, faults: CreateFault[], random: Random): Array<CreateFault | null> {
	const struck = faults.flatMap((fault) => Array<CreateFault>(strikesOf(creates, fault)).fill(fault));
	if (struck.length > creates) throw new Error(`the faults strike ${struck.length} of ${creates} creates`);
	return shuffled([...struck, ...Array<null>(creates - struck.length).fill(null)], random);
}

// A queued fault the sandbox logs but that changes nothing: it keeps the next POST's place in the queue.
const NO_FAULT: FaultSpec = { kind: 'latency', delayMs: 0 };

/**
 * Queues the plan in the sandbox for POST /contacts, one entry per run of equal faults: the n-th POST to arrive
 * gets the plan's n-th fault, whichever item sends it.
 */
export async function queueCreateFaults(session: ReliabilitySession, plan: Array<CreateFault | null>): Promise<void> {
	for (let start = 0; start < plan.length; ) {
		let end = start + 1;
		while (end < plan.length && plan[end] === plan[start]) end++;
		const match = { method: 'POST', path: '/contacts' };
		await session.sandbox.queueFault({ match, fault: plan[start]?.fault ?? NO_FAULT, times: end - start });
		start = end;
	}
}
