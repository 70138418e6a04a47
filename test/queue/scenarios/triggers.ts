import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { EVENT_NAMES, type EventName } from '../../../sandbox/events';
import type { RequestLogEntry } from '../../../sandbox/requestLog';
import type { Contact, Invoice } from '../../../sandbox/types';
import { ACTING_STEP, confirmingWorkflow, REVIEW_STEP, triggerBranch } from '../../../tooling/host/confirmingTrigger';
import { exampleWorkflow } from '../../../tooling/host/examples';
import { allExecutions, atLeast, type ListedExecution, nodeOutput, waitForExecutions } from '../../../tooling/host/executions';
import { N8N_VERSION } from '../../../tooling/host/install';
import { n8nLine } from '../../../tooling/host/lines';
import { killN8n } from '../../../tooling/host/n8nProcess';
import { sleep } from '../../../tooling/host/processes';
import { lastStoppedAfter, perWorker, recordedWorker, startedByWorker } from '../../../tooling/host/queue/executions';
import { lookUpWorkflow, triggerWorkflow, workerNode } from '../../../tooling/host/queue/workflows';
import type { Credential, Execution, WorkflowDefinition } from '../../../tooling/host/types';
import { postDelivery } from '../../../tooling/host/triggers';
import { byId, chain, ERP_POLLING_TRIGGER_NAME, erpNode, erpPollingTriggerNode } from '../../../tooling/host/workflows';
import { checkMainDown, countBy, createContacts, deliveriesTo, erpCall, processNamed, type QueueSession, readUntil, restartMain, startAgain, stopMain, succeeded, withTrigger, workerMismatches } from '../support/session';

/** The shortest Poll Times the line accepts (every 10 s), as in the e2e polling tests. */
export const POLL = n8nLine(N8N_VERSION).shortestPoll;
/** A poll's execution is waited for up to this long. */
const POLL_WAIT_MS = POLL.intervalMs + 20_000;
/** Main stays down longer than one poll interval, so that at least one poll time passes while it is down. */
const MAIN_DOWN_MS = POLL.intervalMs + 10_000;

/** The trigger's item in an execution: `{event, timestamp, data}` as the ERP delivered it. */
const triggerItem = (execution: Execution) => nodeOutput(execution, 'ERP Trigger')[0] ?? {};

/**
 * Emits `events` in batches of `batch` at once (each batch's deliveries settled before the next) to an active
 * ERP Trigger → Worker workflow, waits for the executions they start and counts what the sandbox and n8n recorded.
 * `marked`: the i-th event carries `data.marker` i, by which its execution is known; otherwise the sandbox builds
 * each event's data from its newest fitting record, and an execution is known by its event's name.
 */
async function deliverEvents(session: QueueSession, name: string, events: EventName[], batch: number, marked: boolean) {
	return withTrigger(session, triggerWorkflow(name, [...EVENT_NAMES]), undefined, async (workflowId, url) => {
		const started = Date.now();
		for (let first = 0; first < events.length; first += batch) {
			await Promise.all(events.slice(first, first + batch).map((event, i) => session.sandbox.emit(event, marked ? { marker: first + i } : undefined)));
			await deliveriesTo(session, url);
		}
		const deliveries = await deliveriesTo(session, url);
		const executions = await waitForExecutions(session.n8n, workflowId, atLeast(events.length), 5 * 60_000);
		const keyOf = (e: Execution) => String(marked ? (triggerItem(e).data as { marker?: number }).marker : triggerItem(e).event);
		const seen = countBy(executions.map(keyOf));
		const answers = deliveries
			.map((d) => Date.parse(d.attempts[0]?.at ?? '') - Date.parse((d.body as { timestamp: string }).timestamp))
			.sort((a, b) => a - b);
		const figures = {
			deliveries: deliveries.length,
			// Sent more than once (a retry could start a second execution).
			retriedDeliveries: deliveries.filter((d) => d.attempts.length !== 1 || !d.delivered).length,
			executions: executions.length,
			succeeded: succeeded(executions),
			perWorker: perWorker(executions),
			lost: (marked ? events.map((_, i) => String(i)) : events).filter((key) => !seen[key]).length,
			twice: Object.values(seen).filter((n) => n > 1).length,
			workerMismatches: workerMismatches(executions, startedByWorker(session.ctx)),
			// From the event to the webhook processor's answer to its first attempt.
			answerMs: { median: answers[Math.floor(answers.length / 2)], max: answers[answers.length - 1] },
			// From the first event emitted to the last delivery answered, and to the last execution stopped (n8n's clock).
			deliveryMs: Math.max(...deliveries.flatMap((d) => d.attempts.map((a) => Date.parse(a.at)))) - started,
			totalMs: lastStoppedAfter(executions, started),
		};
		return { figures, executions };
	});
}

export type TriggerFigures = Awaited<ReturnType<typeof deliverEvents>>['figures'];

/** The six events once each, one after the other, and which worker ran each. */
export async function sixEvents(session: QueueSession) {
	const { figures, executions } = await deliverEvents(session, 'queue six events', [...EVENT_NAMES], 1, false);
	return { ...figures, workers: Object.fromEntries(executions.map((e) => [String(triggerItem(e).event), recordedWorker(e) ?? ''])) };
}

/** `total` deliveries, `batch` at a time, the six events in turn, each carrying its number as `data.marker`. */
export async function deliveryBurst(session: QueueSession, total: number, batch: number) {
	const events = Array.from({ length: total }, (_, i) => EVENT_NAMES[i % EVENT_NAMES.length]);
	return { ...(await deliverEvents(session, 'queue delivery burst', events, batch, true)).figures, batch };
}

/**
 * An ERP Trigger version 2 (Confirm With the ERP) on contact.created, subscribed through the webhook processor's URL:
 * `count` contacts created through the ERP's API (real deliveries) and `count` forged contact.created for contacts
 * that do not exist. The webhook processor reads each back before it answers; the workers run the executions.
 */
export async function confirmationInTheCluster(session: QueueSession, count: number) {
	const definition = confirmingWorkflow('queue confirmed events', ['contact.created'], session.ctx.credential, { options: { confirmationWait: 3 } });
	return withTrigger(session, definition, ['contact.created'], async (workflowId, url, subscriptionId) => {
		const firstSeq = await session.sandbox.lastRequestSeq();
		const created: number[] = [];
		const forgedIds: string[] = [];
		for (let i = 0; i < count; i++) {
			created.push((await erpCall<Contact>(session, 'POST', '/contacts', { first_name: 'Queued', last_name: `Customer ${i}`, email: `queued.${i}.${Date.now()}@example.com` })).id);
			const [forged] = await session.sandbox.forge({ event: 'contact.created', data: { id: 800_000 + i, first_name: 'Forged' }, subscriptionId });
			forgedIds.push(forged.id);
		}
		const deliveries = await deliveriesTo(session, url);
		// One execution per attempt answered (a 503 the trigger answered started one too, as could not confirm); a
		// contradicted one starts only once the trigger has read on for 10 s after the delivery.
		const answeredAttempts = deliveries.flatMap((d) => d.attempts).filter((a) => typeof a.status === 'number').length;
		const executions = await waitForExecutions(session.n8n, workflowId, atLeast(answeredAttempts), 2 * 60_000);
		const forgedSet = new Set(forgedIds);
		const acted = executions.flatMap((e) => nodeOutput(e, ACTING_STEP)).map((item) => String(item.deliveryKey));
		const notConfirmed = executions.flatMap((e) => nodeOutput(e, REVIEW_STEP));
		const statusOf = (item: Record<string, unknown>) => (item.confirmation as { status: string; reason?: string }).status;
		const unsure = notConfirmed.filter((item) => statusOf(item) === 'couldNotConfirm');
		// A forged delivery's final word: the trigger's answer to its last attempt.
		const finalWord = (key: string) => {
			const statuses = notConfirmed.filter((item) => String(item.deliveryKey) === key).map(statusOf);
			return statuses.includes('contradicted') ? 'contradicted' : (statuses[0] ?? 'none');
		};
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
			succeeded: succeeded(executions),
			realConfirmed: acted.filter((key) => !forgedSet.has(key)).length,
			forgedConfirmed: acted.filter((key) => forgedSet.has(key)).length,
			forgedNotConfirmed: countBy([...forgedSet].map(finalWord)),
			readBacks,
			perWorker: countBy(executions.map((e) => startedBy.get(e.id) ?? 'none')),
		};
	});
}

/**
 * The example that takes invoice.paid from both triggers (ERP Trigger → webhook processor, ERP Polling Trigger → main)
 * into one Remove Duplicates on eventKey, whose history is in PostgreSQL, shared by the workers: one payment, then
 * a replay of its delivery with a new timestamp and delivery id, then polls: the goods ship once.
 */
export async function bothTriggersInTheCluster(session: QueueSession) {
	const definition = { ...exampleWorkflow('invoice-paid-ship-once.json', session.ctx.credential, POLL.pollTimes), name: 'queue: one payment from both triggers' };
	const pollWaitMs = POLL.intervalMs + 30_000;
	return withTrigger(session, definition, ['invoice.paid'], async (workflowId, url) => {
		try {
			// Publishing's poll remembers every invoice as it is: the payment below is news to the next poll.
			await waitForExecutions(session.n8n, workflowId, atLeast(1), pollWaitMs);
			const [contact] = await session.sandbox.records('contacts');
			const lines = [{ description: 'Forklift battery', quantity: 1, unit_price: 2140, tax_rate: 20 }];
			const invoice = await erpCall<Invoice>(session, 'POST', '/invoices', { contact_id: contact.id, lines });
			await erpCall(session, 'POST', `/invoices/${invoice.id}/send`, { email: 'ap@example.com' });
			await erpCall(session, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-QUEUE' });
			const [delivery] = await deliveriesTo(session, url);

			const byWebhook = (e: ListedExecution) => triggerBranch(e, 0).some((item) => item.data.invoice_id === invoice.id);
			const byPoll = (e: ListedExecution) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).some((item) => (item.data as { invoice_id?: number }).invoice_id === invoice.id);
			await waitForExecutions(session.n8n, workflowId, atLeast(1, byWebhook), 60_000);
			const replay = await postDelivery(url, { ...(delivery.body as object), timestamp: new Date().toISOString() }, `replay-${randomUUID()}`);
			const executions = await waitForExecutions(session.n8n, workflowId, (all) => all.filter(byWebhook).length >= 2 && all.some(byPoll), pollWaitMs + 30_000);
			const webhookKey = triggerBranch(executions.filter(byWebhook)[0], 0)[0].eventKey;
			const polled = executions.filter(byPoll).flatMap((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME));
			// Executions the webhook processor's confirmation started, and main's poll; the items the acting step put out, by trigger.
			return {
				byWebhook: executions.filter(byWebhook).length,
				byPoll: executions.filter(byPoll).length,
				sameKey: polled.length > 0 && polled.every((item) => item.eventKey === webhookKey),
				delivery: delivery.attempts.map((a) => a.status ?? 0),
				replay: replay.status,
				shipped: executions.flatMap((e) => nodeOutput(e, 'Ship the Goods')).filter((item) => item.invoice_id === invoice.id).map((item) => String(item.reported_by)),
			};
		} finally {
			await session.n8n.deactivateWorkflow(workflowId);
		}
	});
}

/**
 * Stops main the ordinary way (SIGTERM), creates `count` contacts in the ERP, whose contact.created deliveries go
 * to the webhook processor, and waits until the workers have looked each contact up in the ERP. Then starts
 * main again and reads the executions that ran meanwhile.
 */
export async function eventsWhileMainDown(session: QueueSession, count: number) {
	const definition = lookUpWorkflow('queue main down', ['contact.created'], session.ctx.credential);
	return withTrigger(session, definition, ['contact.created'], async (workflowId, url) => {
		const mainStopMs = await stopMain(session);
		const downSince = Date.now();
		const since = await session.sandbox.lastRequestSeq();
		const ids = await createContacts(session, 'main-down', count);
		const deliveries = await deliveriesTo(session, url);
		const lookUpPaths = new Set(ids.map((id) => `/contacts/${id}`));
		const lookUps = async () => (await session.sandbox.requests(since)).filter((r) => r.method === 'GET' && lookUpPaths.has(r.path) && r.status === 200);
		const lookUpsWhileDown = (await readUntil(lookUps, (found) => found.length >= count, 2 * 60_000, 250)).length;
		await checkMainDown(session, 'main came back during the test');

		const restartAt = Date.now();
		const restarted = await restartMain(session);
		const executions = await waitForExecutions(session.n8n, workflowId, atLeast(count), 60_000);
		const startedBy = startedByWorker(session.ctx);
		const ranWhileDown = (e: Execution) =>
			Date.parse(e.startedAt) > downSince && Date.parse(e.stoppedAt ?? '') < restartAt && Boolean(startedBy.get(e.id)?.startsWith('worker-'));
		return {
			contactsCreated: ids.length,
			deliveries: deliveries.length,
			// Answered 2xx at the first attempt, while main was down; the look-ups are the workers' GET /contacts/<id>.
			acceptedFirstTime: deliveries.filter((d) => d.attempts.length === 1 && (d.attempts[0].status ?? 0) < 300).length,
			lookUps: (await lookUps()).length,
			lookUpsWhileDown,
			executions: executions.length,
			succeeded: succeeded(executions),
			perWorker: perWorker(executions),
			ranWhileDown: executions.filter(ranWhileDown).length,
			mainStopMs,
			mainRestartBootMs: restarted.bootMs,
		};
	});
}

const WORKFLOW_NAME = 'queue polling contacts';

/** ERP Polling Trigger (contacts, Record Added, every 10 s) → Worker (per item) → ERP Contact › Get of each. */
const pollingWorkflow = (credential: Credential): WorkflowDefinition =>
	chain(WORKFLOW_NAME, [
		erpPollingTriggerNode(POLL.pollTimes, { triggerOn: 'contact:recordAdded' }, credential),
		workerNode(false),
		erpNode({ resource: 'contact', operation: 'get', contactId: byId('={{ $json.data.id }}') }, credential, 'Get Contact'),
	]);

const isScan = (r: RequestLogEntry) => r.method === 'GET' && r.path === '/contacts' && (r.query.page ?? '1') === '1';

const contactIdOf = (json: Record<string, unknown>) => Number((json.data as { id?: unknown } | undefined)?.id);

/** Trigger items of these executions: contact IDs, in order. */
const reportedIds = (executions: Execution[]) => executions.flatMap((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).map(contactIdOf));

/** Lines of a process's log matching `pattern` (its first group), across its restarts (the log is appended to). */
const logMatches = (logFile: string, pattern: RegExp) => [...readFileSync(logFile, 'utf8').matchAll(pattern)].map((m) => m[1]);

/**
 * An active ERP Polling Trigger workflow in the cluster. Publishing it starts an execution (`publish`), awaited
 * first. Then contacts are created through the ERP's API in four steps: with everything up; with `victimName`
 * killed (SIGKILL) after the previous poll; with it started again; and while main is stopped (longer than a poll
 * interval), then started again. After each step, waits for the executions that report the step's contacts; at the
 * end, for one more poll that must report nothing. Answers what n8n, the processes' logs and the ERP's request log
 * recorded.
 */
export async function pollingInTheCluster(session: QueueSession, victimName: string) {
	const main = processNamed(session, 'main');
	const victim = processNamed(session, victimName);
	const pollLines = () => logMatches(main.logFile, new RegExp(`(Poll trigger initiated) for workflow "${WORKFLOW_NAME}"`, 'g')).length;

	const workflow = await session.n8n.createActiveWorkflow(pollingWorkflow(session.ctx.credential));
	// Activation is synchronous here (no publication service): its poll, the baseline, is done and logged.
	const afterBaseline = await session.sandbox.lastRequestSeq();
	const pollsAtBaseline = pollLines();
	const published = await waitForExecutions(session.n8n, workflow.id, atLeast(1));

	const steps: Array<{ label: string; contactsCreated: number; executions: number; perWorker: Record<string, number> }> = [];
	const created: number[] = [];
	let counted = published.length;
	const step = async (label: string, ids: number[]) => {
		created.push(...ids);
		const reportsAll = (executions: Execution[]) => created.every((id) => reportedIds(executions).includes(id));
		const executions = await waitForExecutions(session.n8n, workflow.id, reportsAll, POLL_WAIT_MS + 30_000);
		const fresh = executions.slice(counted);
		counted = executions.length;
		steps.push({ label, contactsCreated: ids.length, executions: fresh.length, perWorker: perWorker(fresh) });
		return executions;
	};

	await step('all processes up', await createContacts(session, 'poll-up', 20));

	await killN8n(victim);
	await step(`${victimName} killed (SIGKILL) after the previous poll`, await createContacts(session, 'poll-killed', 10));
	const workerRestart = await startAgain(session, victim.spec);
	await step(`${victimName} started again`, await createContacts(session, 'poll-restarted', 10));

	await stopMain(session);
	const downSince = Date.now();
	const downFrom = await session.sandbox.lastRequestSeq();
	const whileDown = await createContacts(session, 'poll-main-down', 10);
	await sleep(Math.max(0, MAIN_DOWN_MS - (Date.now() - downSince)));
	const scansWhileMainDown = (await session.sandbox.requests(downFrom)).filter(isScan).length;
	const mainDownMs = Date.now() - downSince;
	await checkMainDown(session, 'main answered while it was meant to be down');
	const mainRestart = await restartMain(session);
	const restartedAt = Date.now();
	// The activation poll of the restarted main reports what was created while it was down.
	await step('created while main was down; main started again', whileDown);

	// One more poll after the last execution: it must start none (nothing left to report, nothing twice).
	const lastSeq = await session.sandbox.lastRequestSeq();
	const scansAfterLast = await readUntil(async () => (await session.sandbox.requests(lastSeq)).filter(isScan).length, (n) => n > 0, POLL_WAIT_MS, 1000);
	// The poll that scanned would have enqueued its execution before this reads the list again.
	await sleep(5000);
	const final = await allExecutions(session.n8n, workflow.id, true);
	const mainPolls = pollLines() - pollsAtBaseline;
	const requests = await session.sandbox.requests(afterBaseline);
	const scanTimes = requests.filter(isScan).map((r) => Date.parse(r.at));
	// Scheduled polls only: before main stopped, and after the restarted main's activation poll.
	const gapsOf = (times: number[]) => times.slice(1).map((at, i) => (at - times[i]) / 1000);
	const gaps = [...gapsOf(scanTimes.filter((at) => at < downSince)), ...gapsOf(scanTimes.filter((at) => at > restartedAt - mainRestart.bootMs).slice(1))];

	const reported = reportedIds(final);
	const perContact = countBy(reported.map(String));
	const createdSet = new Set(created.map(String));
	const contactReads = requests.filter((r) => r.method === 'GET' && r.status === 200 && /^\/contacts\/\d+$/.test(r.path));
	const lookUps = countBy(contactReads.map((r) => r.path.slice('/contacts/'.length)));
	const startedBy = startedByWorker(session.ctx);
	const enqueuers = new Map(session.ctx.processes.flatMap(({ spec, logFile }) => logMatches(logFile, /Enqueued execution (\d+) \(job/g).map((id) => [id, spec.name] as const)));
	const queuedBy = (executions: Execution[]) => executions.map((e) => enqueuers.get(e.id) ?? 'none found');
	const publish = final.slice(0, published.length);
	const reporting = final.slice(published.length);
	// publish: the executions publishing started (main's activation poll, the baseline, reports nothing and starts one
	// with no items so that n8n keeps it); enqueuedBy: per process, the jobs its log says it put in Redis.
	return {
		contactsCreated: created.length,
		reports: reported.length,
		lost: created.filter((id) => !perContact[String(id)]).length,
		twice: Object.entries(perContact).filter(([id, n]) => createdSet.has(id) && n > 1).length,
		unexpected: reported.filter((id) => !createdSet.has(String(id))).length,
		executions: final.length,
		succeeded: succeeded(final),
		perWorker: perWorker(reporting),
		publish: {
			executions: publish.length,
			succeeded: succeeded(publish),
			items: reportedIds(publish).length,
			nodesRun: [...new Set(publish.flatMap((e) => Object.keys(e.data?.resultData.runData ?? {})))],
			queuedBy: queuedBy(publish),
			ranOn: publish.map((e) => startedBy.get(e.id) ?? 'none found'),
		},
		emptyAfterPublish: reporting.filter((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).length === 0).length,
		workerMismatches: workerMismatches(reporting, startedBy),
		enqueuedBy: countBy(queuedBy(final)),
		lookedUpOnce: created.filter((id) => lookUps[String(id)] === 1).length,
		lookedUpTwice: created.filter((id) => (lookUps[String(id)] ?? 0) > 1).length,
		scans: scanTimes.length,
		mainPolls,
		scanGapsS: { min: Math.min(...gaps), max: Math.max(...gaps) },
		mainDownMs,
		scansWhileMainDown,
		scansAfterLast,
		events: [...new Set(final.flatMap((e) => nodeOutput(e, ERP_POLLING_TRIGGER_NAME).map((json) => String(json.event))))],
		steps,
		workerRestartBootMs: workerRestart.bootMs,
		mainRestartBootMs: mainRestart.bootMs,
	};
}
