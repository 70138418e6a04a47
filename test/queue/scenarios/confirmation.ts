import type { Contact } from '../../../sandbox/types';
import { ACTING_STEP, confirmingWorkflow, REVIEW_STEP } from '../../../tooling/host/confirmingTrigger';
import { atLeast, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { settledDeliveries } from '../../../tooling/host/triggers';
import { startedByWorker } from '../../../tooling/host/queue/executions';
import { erpCall, type QueueSession, subscribedTrigger } from '../support/session';
import { countBy } from './polling';

/**
 * An ERP Trigger version 2 (Confirm With the ERP) on contact.created, subscribed through the webhook processor's URL:
 * `count` contacts created through the ERP's API (real deliveries) and `count` forged contact.created for contacts
 * that do not exist. The webhook processor reads each back before it answers; the workers run the executions.
 */
export async function confirmationInTheCluster(session: QueueSession, count: number) {
	const definition = confirmingWorkflow('queue confirmed events', ['contact.created'], session.ctx.credential, { options: { confirmationWait: 3 } });
	const { workflow, url, subscriptionId } = await subscribedTrigger(session, definition, ['contact.created']);
	const firstSeq = await session.sandbox.lastRequestSeq();
	const lastEvent = (await session.sandbox.events()).at(-1)?.seq ?? 0;
	try {
		const created: number[] = [];
		const forgedIds: string[] = [];
		for (let i = 0; i < count; i++) {
			created.push((await erpCall<Contact>(session, 'POST', '/contacts', { first_name: 'Queued', last_name: `Customer ${i}`, email: `queued.${i}.${Date.now()}@example.com` })).id);
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
		const forgedNotConfirmed = countBy(
			[...forgedSet].map((key) => {
				const items = notConfirmed.filter((item) => String(item.deliveryKey) === key);
				return items.some((item) => statusOf(item) === 'contradicted') ? 'contradicted' : (items.map(statusOf)[0] ?? 'none');
			}),
		);
		const startedBy = startedByWorker(session.ctx);
		const contactPaths = new Set([...created, ...Array.from({ length: count }, (_, i) => 800_000 + i)].map((id) => `/contacts/${id}`));
		const readBacks = (await session.sandbox.requests(firstSeq)).filter((r) => r.method === 'GET' && contactPaths.has(r.path)).length;
		// realConfirmed, forgedConfirmed: deliveries at the acting step (after Confirmed); forgedNotConfirmed: by their final status.
		return {
			real: deliveries.filter((d) => !d.forged).length,
			forged: deliveries.filter((d) => d.forged).length,
			answeredFirstTime: deliveries.filter((d) => (d.attempts[0]?.status ?? 0) >= 200 && (d.attempts[0]?.status ?? 0) < 300).length,
			delivered: deliveries.filter((d) => d.delivered).length,
			answers: countBy(deliveries.flatMap((d) => d.attempts).map((a) => String(a.status ?? 'none'))),
			couldNotConfirm: unsure.length,
			couldNotConfirmReasons: [...new Set(unsure.map((item) => String((item.confirmation as { reason?: string }).reason)))].slice(0, 5),
			executions: executions.length,
			succeeded: executions.filter((e) => e.status === 'success').length,
			realConfirmed: acted.filter((key) => !forgedSet.has(key)).length,
			forgedConfirmed: acted.filter((key) => forgedSet.has(key)).length,
			forgedNotConfirmed,
			readBacks,
			perWorker: countBy(executions.map((e) => startedBy.get(e.id) ?? 'none')),
		};
	} finally {
		await session.sandbox.removeWebhook(subscriptionId);
	}
}

export type ConfirmationFigures = Awaited<ReturnType<typeof confirmationInTheCluster>>;
