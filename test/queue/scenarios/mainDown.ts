import { createContact } from '../../../bench/contacts';
import { atLeast, waitForExecutions } from '../../../tooling/host/executions';
import { sleep } from '../../../tooling/host/processes';
import { settledDeliveries } from '../../../tooling/host/triggers';
import { stopN8n } from '../../../tooling/host/n8nProcess';
import { perWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { type QueueSession, reconnectMain, startAgain, subscribedTrigger } from '../support/session';
import { lookUpWorkflow } from '../../../tooling/host/queue/workflows';

export const mainIsDown = (url: string) => fetch(`${url}/healthz`).then(() => false, () => true);

/**
 * Stops main the ordinary way (SIGTERM), creates `count` contacts in the ERP, whose contact.created deliveries go
 * to the webhook processor, and waits until the workers have looked each contact up in the ERP. Then starts
 * main again and reads the executions that ran meanwhile.
 */
export async function eventsWhileMainDown(session: QueueSession, count: number) {
	const { erp } = session.ctx;
	const { workflow, subscriptionId } = await subscribedTrigger(session, lookUpWorkflow('queue main down', ['contact.created'], session.ctx.credential), ['contact.created']);
	const main = session.ctx.processes.find((p) => p.spec.role === 'main');
	if (!main) throw new Error('no main process in the context');

	const stopAt = Date.now();
	await stopN8n(main);
	const mainStopMs = Date.now() - stopAt;
	if (!(await mainIsDown(session.ctx.mainUrl))) throw new Error('main still answers after its process group stopped');
	const downSince = Date.now();
	const since = await session.sandbox.lastRequestSeq();

	const ids: number[] = [];
	// Each create through the ERP's API makes the sandbox emit contact.created.
	for (let i = 0; i < count; i++) {
		ids.push(await createContact(erp, { first_name: `MainDown${i}`, last_name: 'Queue', email: `main-down-${i}-${Date.now()}@queue.example`, company: 'Queue' }));
	}
	const events = (await session.sandbox.events()).filter((e) => e.event === 'contact.created' && ids.includes((e.data as { id: number }).id));
	const deliveries = await settledDeliveries(session.sandbox, events.flatMap((e) => e.deliveryIds), 60_000);
	const lookUpPaths = new Set(ids.map((id) => `/contacts/${id}`));
	const lookUps = async () => (await session.sandbox.requests(since)).filter((r) => r.method === 'GET' && lookUpPaths.has(r.path) && r.status === 200);
	const deadline = Date.now() + 2 * 60_000;
	while ((await lookUps()).length < count && Date.now() < deadline) await sleep(250);
	const lookUpsWhileDown = (await lookUps()).length;
	if (!(await mainIsDown(session.ctx.mainUrl))) throw new Error('main came back during the test');
	await session.sandbox.removeWebhook(subscriptionId);

	const restartAt = Date.now();
	const restarted = await startAgain(session, main.spec);
	await reconnectMain(session);
	const executions = await waitForExecutions(session.n8n, workflow.id, atLeast(count), 60_000);
	const startedBy = startedByWorker(session.ctx);
	const ranWhileDown = (e: (typeof executions)[number]) =>
		Date.parse(e.startedAt) > downSince && Date.parse(e.stoppedAt ?? '') < restartAt && Boolean(startedBy.get(e.id)?.startsWith('worker-'));
	return {
		contactsCreated: ids.length,
		deliveries: deliveries.length,
		// Answered 2xx at the first attempt, while main was down; the look-ups are the workers' GET /contacts/<id>.
		acceptedFirstTime: deliveries.filter((d) => d.attempts.length === 1 && (d.attempts[0].status ?? 0) < 300).length,
		lookUps: (await lookUps()).length,
		lookUpsWhileDown,
		executions: executions.length,
		succeeded: executions.filter((e) => e.status === 'success').length,
		perWorker: perWorker(executions),
		ranWhileDown: executions.filter(ranWhileDown).length,
		mainStopMs,
		mainRestartBootMs: restarted.bootMs,
	};
}

export type MainDownFigures = Awaited<ReturnType<typeof eventsWhileMainDown>>;
