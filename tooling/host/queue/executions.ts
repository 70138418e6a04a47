import { readFileSync } from 'node:fs';

import type { Execution } from '../types';
import { nodeOutput } from '../executions';
import type { QueueProcessSpec } from './n8nQueueProcess';
import { WORKER_NODE } from './workflows';

/** The process the execution itself recorded in its Worker node ($env of the process that ran it). */
export const recordedWorker = (execution: Execution): string | undefined => nodeOutput(execution, WORKER_NODE)[0]?.worker as string | undefined;

/** Which worker picked up each execution, by the workers' logs ("Worker started execution 12 (job 7)"): a second witness, the only one when the worker died. */
export function startedByWorker(ctx: { processes: Array<{ spec: QueueProcessSpec; logFile: string }> }): Map<string, string> {
	const startedBy = new Map<string, string>();
	for (const { spec, logFile } of ctx.processes.filter((p) => p.spec.role === 'worker')) {
		for (const match of readFileSync(logFile, 'utf8').matchAll(/Worker started execution (\d+) \(job/g)) {
			startedBy.set(match[1], startedBy.has(match[1]) ? `${startedBy.get(match[1])}+${spec.name}` : spec.name);
		}
	}
	return startedBy;
}

/** How many executions each process ran, by the executions' own record. */
export function perWorker(executions: Execution[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const execution of executions) {
		const worker = recordedWorker(execution) ?? 'none recorded';
		counts[worker] = (counts[worker] ?? 0) + 1;
	}
	return counts;
}

/** Milliseconds from `since` to the last of these executions' stop, by n8n's own clock in the database. */
export const lastStoppedAfter = (executions: Execution[], since: number): number =>
	Math.max(...executions.map((e) => Date.parse(e.stoppedAt ?? e.startedAt))) - since;

/** The most executions running at the same moment, from their start and stop times. */
export function mostAtOnce(executions: Execution[]): number {
	const edges = executions.flatMap((e) => [{ at: Date.parse(e.startedAt), step: 1 }, { at: Date.parse(e.stoppedAt ?? e.startedAt), step: -1 }]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let running = 0;
	let most = 0;
	for (const edge of edges) most = Math.max(most, (running += edge.step));
	return most;
}
