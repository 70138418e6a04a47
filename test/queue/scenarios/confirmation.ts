import type { Contact } from '../../../sandbox/types';
import { ACTING_STEP, confirmingWorkflow, REVIEW_STEP } from '../../../tooling/host/confirmingTrigger';
import { erpTriggerType, triggerUrl } from '../../../tooling/host/examples';
import { atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { settledDeliveries } from '../../../tooling/host/triggers';
import { startedByWorker } from '../../../tooling/host/queue/executions';
import type { QueueSession } from '../support/session';

export interface ConfirmationFigures {
	real: number;
	forged: number;
	/** Deliveries the webhook processor answered 2xx on the first attempt, and in the end. */
	answeredFirstTime: number;
	delivered: number;
	/** Every attempt's answer, by status (none: no answer). */
	answers: Record<string, number>;
	/** Items passed on as could not confirm (an attempt answered 503), with their reasons. */
	couldNotConfirm: number;
	couldNotConfirmReasons: string[];
	executions: number;
	succeeded: number;
	/** Real deliveries that reached the acting step (after Confirmed), and forged ones that did (must be 0). */
	realConfirmed: number;
	forgedConfirmed: number;
	/** Forged deliveries on Not Confirmed, by the reason's status. */
	forgedNotConfirmed: Record<string, number>;
	/** The ERP's log: reads of the contacts the deliveries named, made while the webhook processor answered. */
	readBacks: number;
	/** Per worker that picked the execution up (the workers' logs). */
	perWorker: Record<string, number>;
}

/**
 * An ERP Trigger version 2 (Confirm With the ERP) on contact.created, subscribed through the webhook processor's URL:
 * `count` contacts created through the ERP's API (real deliveries) and `count` forged contact.created for contacts
 * that do not exist. The webhook processor reads each back before it answers; the workers run the executions.
 */
export async function confirmationInTheCluster(session: QueueSession, count: number): Promise<ConfirmationFigures> {
	const definition = confirmingWorkflow('queue confirmed events', ['contact.created'], session.ctx.credential, { options: { confirmationWait: 3 } });
	const workflow = await session.n8n.createActiveWorkflow(definition);
	const url = triggerUrl(session.ctx.webhookUrl, definition.nodes[0], await erpTriggerType(session.n8n));
	const { id: subscriptionId } = await session.sandbox.addWebhook({ url, events: ['contact.created'] });
	const firstSeq = await session.sandbox.lastRequestSeq();
	const lastEvent = (await session.sandbox.events()).at(-1)?.seq ?? 0;
	try {
		const created: number[] = [];
		const forgedIds: string[] = [];
		for (let i = 0; i < count; i++) {
			const response = await fetch(`${session.ctx.erp.baseUrl}/contacts`, {
				method: 'POST',
				headers: { authorization: `Bearer ${session.ctx.erp.token}`, 'content-type': 'application/json' },
				body: JSON.stringify({ first_name: 'Queued', last_name: `Customer ${i}`, email: `queued.${i}.${Date.now()}@example.com` }),
			});
			created.push(((await response.json()) as { data: Contact }).data.id);
			const [forged] = await session.sandbox.forge({ event: 'contact.created', data: { id: 800_000 + i, first_name: 'Forged' }, subscriptionId });
			forgedIds.push(forged.id);
		}
		const realIds = (await session.sandbox.events()).filter((e) => e.seq > lastEvent && e.event === 'contact.created').flatMap((e) => e.deliveryIds);
		const deliveries = (await settledDeliveries(session.sandbox, [...realIds, ...forgedIds], 60_000)).filter((d) => d.url === url);
		// One execution per attempt answered (a 503 the trigger answered started one too, as could not confirm); a
		// contradicted one starts only once the trigger has read on for 10 s after the delivery.
		const answeredAttempts = deliveries.flatMap((d) => d.attempts).filter((a) => typeof a.status === 'number').length;
		const executions = await waitForExecutions(session.n8n, workflow.id, atLeast(answeredAttempts), 2 * 60_000);
		const forgedSet = new Set(forgedIds);
		const acted = executions.flatMap((e) => nodeOutput(e, ACTING_STEP)).map((item) => String(item.deliveryKey));
		const notConfirmed = executions.flatMap((e) => nodeOutput(e, REVIEW_STEP));
		const statusOf = (item: Record<string, unknown>) => (item.confirmation as { status: string; reason?: string }).status;
		const unsure = notConfirmed.filter((item) => statusOf(item) === 'couldNotConfirm');
		// A forged delivery's final word: the trigger's answer to its last attempt.
		const forgedNotConfirmed: Record<string, number> = {};
		for (const key of forgedSet) {
			const items = notConfirmed.filter((item) => String(item.deliveryKey) === key);
			const status = items.some((item) => statusOf(item) === 'contradicted') ? 'contradicted' : (items.map(statusOf)[0] ?? 'none');
			forgedNotConfirmed[status] = (forgedNotConfirmed[status] ?? 0) + 1;
		}
		const answers: Record<string, number> = {};
		for (const attempt of deliveries.flatMap((d) => d.attempts)) answers[String(attempt.status ?? 'none')] = (answers[String(attempt.status ?? 'none')] ?? 0) + 1;
		const startedBy = startedByWorker(session.ctx);
		const perWorker: Record<string, number> = {};
		for (const execution of executions) {
			const worker = startedBy.get(execution.id) ?? 'none';
			perWorker[worker] = (perWorker[worker] ?? 0) + 1;
		}
		const contactPaths = new Set([...created, ...Array.from({ length: count }, (_, i) => 800_000 + i)].map((id) => `/contacts/${id}`));
		const readBacks = (await session.sandbox.requests(firstSeq)).filter((r) => r.method === 'GET' && contactPaths.has(r.path)).length;
		return {
			real: deliveries.filter((d) => !d.forged).length,
			forged: deliveries.filter((d) => d.forged).length,
			answeredFirstTime: deliveries.filter((d) => (d.attempts[0]?.status ?? 0) >= 200 && (d.attempts[0]?.status ?? 0) < 300).length,
			delivered: deliveries.filter((d) => d.delivered).length,
			answers,
			couldNotConfirm: unsure.length,
			couldNotConfirmReasons: [...new Set(unsure.map((item) => String((item.confirmation as { reason?: string }).reason)))].slice(0, 5),
			executions: executions.length,
			succeeded: executions.filter((e) => e.status === 'success').length,
			realConfirmed: acted.filter((key) => !forgedSet.has(key)).length,
			forgedConfirmed: acted.filter((key) => forgedSet.has(key)).length,
			forgedNotConfirmed,
			readBacks,
			perWorker,
		};
	} finally {
		await session.sandbox.removeWebhook(subscriptionId);
	}
}
