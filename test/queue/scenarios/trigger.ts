import type { Execution } from '../../../tooling/host/types';
import { atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { settledDeliveries } from '../../../tooling/host/triggers';
import { EVENT_NAMES, type EventName } from '../../../sandbox/events';
import type { Delivery } from '../../../sandbox/webhooks';
import { lastStoppedAfter, recordedWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { type QueueSession, subscribedTrigger } from '../support/session';
import { triggerWorkflow } from '../../../tooling/host/queue/workflows';

export interface TriggerRun {
	deliveries: Delivery[];
	executions: Execution[];
	/** Per execution id: the worker its log says picked it up. */
	startedBy: Map<string, string>;
	/** From the first event emitted to the last delivery answered. */
	deliveryMs: number;
	/** From the first event emitted to the last execution stopped (n8n's clock). */
	totalMs: number;
}

/** The trigger's item in an execution: `{event, timestamp, data}` as the ERP delivered it. */
export const triggerItem = (execution: Execution) => nodeOutput(execution, 'ERP Trigger')[0] ?? {};

/**
 * Emits `total` events in batches of `batch` at once (each batch's deliveries settled before the next), waits
 * for the executions they start and answers what the sandbox and n8n recorded. `dataOf(i)`: the i-th event's
 * data (undefined: the sandbox builds it from its newest fitting record).
 */
export async function deliverEvents(
	session: QueueSession,
	name: string,
	events: EventName[],
	batch: number,
	dataOf: (i: number) => object | undefined,
): Promise<TriggerRun> {
	const { workflow, subscriptionId } = await subscribedTrigger(session, triggerWorkflow(name, [...EVENT_NAMES]));
	const started = Date.now();
	const deliveryIds: string[] = [];
	try {
		for (let first = 0; first < events.length; first += batch) {
			const emitted = await Promise.all(
				events.slice(first, first + batch).map((event, i) => session.sandbox.emit(event, dataOf(first + i))),
			);
			const ids = emitted.flatMap((e) => e.deliveryIds);
			deliveryIds.push(...ids);
			await settledDeliveries(session.sandbox, ids, 60_000);
		}
	} finally {
		await session.sandbox.removeWebhook(subscriptionId);
	}
	const deliveries = await settledDeliveries(session.sandbox, deliveryIds, 60_000);
	const deliveryMs = Math.max(...deliveries.flatMap((d) => d.attempts.map((a) => Date.parse(a.at)))) - started;
	const executions = await waitForExecutions(session.n8n, workflow.id, atLeast(events.length), 5 * 60_000);
	return { deliveries, executions, startedBy: startedByWorker(session.ctx), deliveryMs, totalMs: lastStoppedAfter(executions, started) };
}

/** The six events once each, one after the other; the sandbox builds their data from its seeded records. */
export const sixEvents = (session: QueueSession) => deliverEvents(session, 'queue six events', [...EVENT_NAMES], 1, () => undefined);

/** `total` deliveries, `batch` at a time, the six events in turn, each carrying its number as `data.marker`. */
export const deliveryBurst = (session: QueueSession, total: number, batch: number) =>
	deliverEvents(
		session,
		'queue delivery burst',
		Array.from({ length: total }, (_, i) => EVENT_NAMES[i % EVENT_NAMES.length]),
		batch,
		(i) => ({ marker: i }),
	);

/** Counts what a run did; `keyOf` names the event an execution belongs to (its marker, or its event name). */
export function triggerFigures(run: TriggerRun, expectedKeys: string[], keyOf: (execution: Execution) => string) {
	const seen = new Map<string, number>();
	for (const execution of run.executions) seen.set(keyOf(execution), (seen.get(keyOf(execution)) ?? 0) + 1);
	const perWorker: Record<string, number> = {};
	let workerMismatches = 0;
	for (const execution of run.executions) {
		const worker = recordedWorker(execution) ?? 'none';
		perWorker[worker] = (perWorker[worker] ?? 0) + 1;
		if (!worker.startsWith('worker-') || run.startedBy.get(execution.id) !== worker) workerMismatches++;
	}
	const answers = run.deliveries
		.map((d) => Date.parse(d.attempts[0]?.at ?? '') - Date.parse((d.body as { timestamp: string }).timestamp))
		.sort((a, b) => a - b);
	return {
		deliveries: run.deliveries.length,
		// Sent more than once (a retry could start a second execution).
		retriedDeliveries: run.deliveries.filter((d) => d.attempts.length !== 1 || !d.delivered).length,
		executions: run.executions.length,
		succeeded: run.executions.filter((e) => e.status === 'success').length,
		perWorker,
		lost: expectedKeys.filter((key) => !seen.has(key)).length,
		twice: [...seen.values()].filter((n) => n > 1).length,
		// Executions whose own record and the worker logs disagree about the worker, or that ran on none.
		workerMismatches,
		// From the event to the webhook processor's answer to its first attempt.
		answerMs: { median: answers[Math.floor(answers.length / 2)], max: answers[answers.length - 1] },
		deliveryMs: run.deliveryMs,
		totalMs: run.totalMs,
	};
}

export type TriggerFigures = ReturnType<typeof triggerFigures>;
