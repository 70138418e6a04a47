import { performance } from 'node:perf_hooks';

import { DEFAULT_CONFIRMATION_WAIT_S } from '../../nodes/ErpTrigger/properties';
import { HOLD_MS, LAST_READ_MS } from '../../nodes/ErpTrigger/readBack';
import { SandboxAdmin } from '../../sandbox/adminClient';
import { ACTING_STEP, confirmingWorkflow, REVIEW_STEP } from '../../tooling/host/confirmingTrigger';
import { erpTriggerType, triggerUrl } from '../../tooling/host/examples';
import { allExecutions, finishedExecution, type ListedExecution, nodeOutput } from '../../tooling/host/executions';
import { sleep } from '../../tooling/host/processes';
import { N8nClient } from '../../tooling/host/restClient';
import { startStack } from '../../tooling/host/stack';
import { paidEvent, postDelivery } from '../../tooling/host/triggers';
import type { Credential, Execution } from '../../tooling/host/types';
import { CONFIRM } from '../config';
import { untilIdle } from '../n8nProcess';
import { median } from '../stats';

const OWNER = { email: 'bench-confirm@example.com', password: 'Bench-passw0rd', firstName: 'Bench', lastName: 'Confirm' };

/** One way of receiving a delivery: the time the ERP waits for n8n's answer, and the API requests it cost. */
export interface DeliveryCost {
	deliveries: number;
	/** The answer's wall time as the ERP sees it (POST to the trigger's URL until n8n's answer). */
	answerMedian_ms: number;
	answerMax_ms: number;
	/** API requests the sandbox received while these deliveries were answered, per delivery. */
	requestsPerDelivery: number;
	/** Answers other than 200 (must be 0: every delivery here is real). */
	notOk: number;
}

export interface ConfirmBurst {
	/** The trigger's version: 1 takes each delivery as it comes (n8n's own floor), 2 confirms it. */
	version: 1 | 2;
	/** The trigger's Confirmation Wait (s); null: its default (or none: version 1). */
	confirmationWait: number | null;
	deliveries: number;
	limit_rps: number;
	/** Deliveries answered 2xx on their first attempt, and those refused (a non-2xx or no answer: the ERP sends them again). */
	firstAttemptOk: number;
	refused: number;
	refusedShare: number;
	/** The first attempts' answers by status ('none': no answer within the ERP's wait, or the connection failed). */
	firstAnswers: Record<string, number>;
	/** Deliveries that reached the acting step (confirmed), passed on as could not confirm only, or neither. */
	confirmed: number;
	couldNotConfirmOnly: number;
	/** Deliveries the ERP ended (delivered or gave up on) without any execution of them, counted once n8n is at rest. */
	lost: number;
	/** Each lost delivery's answers, attempt by attempt ('none': no answer within the ERP's wait): "503,503,503,503" ×n. */
	lostAnswers: Record<string, number>;
	/**
	 * Deliveries with no execution listed when the ERP had ended every delivery, whose execution came later: an
	 * execution the trigger starts once its read had its turn, up to a minute after its answer. A count made when
	 * the ERP was done would have called them lost.
	 */
	countedLate: number;
	/** Executions that ended other than in success (they hold no delivery). */
	failedExecutions: number;
	/** Executions n8n listed but never finished (n8n 2.41 leaves some 'new' for good under a burst). */
	unfinishedExecutions: number;
	/** Deliveries confirmed in more than one execution. */
	confirmedTwice: number;
	/** The sandbox's 429s to the trigger's reads. */
	refused429: number;
	/** From the first event to the last delivery's last attempt. */
	seconds: number;
}

export interface ConfirmResult {
	date: string;
	n8n: string;
	latency_ms: number;
	/** Version 1 (no confirmation), version 2 confirming invoice.paid (one read) and product.low_stock (two). */
	cost: { v1: DeliveryCost; v2: DeliveryCost; v2LowStock: DeliveryCost };
	/** What confirmation adds to the ERP's wait, median over median (v2 − v1). */
	addedMedian_ms: number;
	/**
	 * The burst to version 1, which reads nothing (what n8n itself does with so many deliveries at once); to version 2
	 * with the trigger's defaults, and with a Confirmation Wait long enough for the burst at the ERP's pace
	 * (CONFIRM.burstWait: the read-back's deadline is the wait plus 1 s). The targets are on the last.
	 */
	burstV1: ConfirmBurst;
	burstDefault: ConfirmBurst;
	burst: ConfirmBurst;
	/** The ERP's wait for an answer (the sandbox gives up on an attempt after it and sends the delivery again). */
	erpTimeout_ms: number;
}

type Log = (line: string) => void;

interface Listening {
	workflowId: string;
	url: string;
}

async function listen(
	n8n: N8nClient,
	credential: Credential,
	event: 'invoice.paid' | 'product.low_stock',
	typeVersion: 1 | 2,
	options?: Record<string, unknown>,
): Promise<Listening> {
	const name = `bench confirm ${event} v${typeVersion}${options ? ` ${JSON.stringify(options)}` : ''}`;
	const definition = confirmingWorkflow(name, [event], typeVersion === 1 ? undefined : credential, { typeVersion, ...(options ? { options } : {}) });
	const workflow = await n8n.createActiveWorkflow(definition);
	return { workflowId: workflow.id, url: triggerUrl(n8n.baseUrl, definition.nodes[0], await erpTriggerType(n8n)) };
}

/** Posts `body` as the ERP would and times n8n's answer. */
async function deliver(url: string, body: object, id: string): Promise<{ ms: number; status: number }> {
	const started = performance.now();
	const response = await postDelivery(url, body, id);
	await response.text();
	return { ms: performance.now() - started, status: response.status };
}

/**
 * The cost of each way: `deliveries` real deliveries each, sent one at a time, the ways taking turns, against an
 * ERP answering every request `latency` ms late.
 */
async function costs(n8n: N8nClient, sandbox: SandboxAdmin, credential: Credential, log: Log): Promise<ConfirmResult['cost']> {
	const invoices = (await sandbox.records('invoices')).filter((i) => i.status === 'paid');
	const lowProducts = (await sandbox.records('products')).filter((p) => p.stock_total < p.low_stock_threshold);
	const ways = {
		v1: { listening: await listen(n8n, credential, 'invoice.paid', 1), body: (i: number) => paidEvent(invoices[i % invoices.length]) },
		v2: { listening: await listen(n8n, credential, 'invoice.paid', 2), body: (i: number) => paidEvent(invoices[i % invoices.length]) },
		v2LowStock: {
			listening: await listen(n8n, credential, 'product.low_stock', 2),
			body: (i: number) => {
				const p = lowProducts[i % lowProducts.length];
				return { event: 'product.low_stock', timestamp: new Date().toISOString(), data: { product_id: p.id, sku: p.sku, stock_total: p.stock_total, low_stock_threshold: p.low_stock_threshold } };
			},
		},
	};
	const names = Object.keys(ways) as Array<keyof typeof ways>;
	const samples = Object.fromEntries(names.map((name) => [name, { ms: [] as number[], requests: 0, notOk: 0 }])) as Record<keyof typeof ways, { ms: number[]; requests: number; notOk: number }>;
	await sandbox.setFaults({ latencyMs: CONFIRM.latencyMs });
	for (let round = -1; round < CONFIRM.deliveries; round++) {
		for (const name of names) {
			const before = await sandbox.lastRequestSeq();
			const { ms, status } = await deliver(ways[name].listening.url, ways[name].body(round + 1), `bench-${name}-${round}`);
			// Round -1 warms each way up and is not counted.
			if (round < 0) continue;
			samples[name].ms.push(ms);
			samples[name].requests += (await sandbox.requests(before)).length;
			if (status !== 200) samples[name].notOk++;
		}
	}
	await sandbox.setFaults({ latencyMs: 0 });
	const cost = Object.fromEntries(
		names.map((name): [string, DeliveryCost] => {
			const s = samples[name];
			return [name, { deliveries: s.ms.length, answerMedian_ms: Math.round(median(s.ms)), answerMax_ms: Math.round(Math.max(...s.ms)), requestsPerDelivery: s.requests / s.ms.length, notOk: s.notOk }];
		}),
	) as ConfirmResult['cost'];
	log(`confirm cost at ${CONFIRM.latencyMs} ms: ${JSON.stringify(cost)}`);
	return cost;
}

/** Before a burst: n8n under 5% of a core for 2 s (after a burst it goes on working once the last execution is
 * listed, and a burst that starts meanwhile meets that work). */
const IDLE = { windowMs: 2_000, share: 0.05, maxMs: 180_000 };

/** The longest the trigger may take after its answer to start a delivery's execution (version 1 starts it at once). */
const longestHoldMs = (version: 1 | 2, confirmationWait: number | null) =>
	version === 1 ? 0 : HOLD_MS + (confirmationWait ?? DEFAULT_CONFIRMATION_WAIT_S) * 1000 + LAST_READ_MS;

/** `CONFIRM.burst` real invoice.paid deliveries emitted at once by the sandbox, under its rate limit, once n8n is idle. */
async function burst(n8n: N8nClient, pid: number, sandbox: SandboxAdmin, credential: Credential, version: 1 | 2, confirmationWait: number | null, log: Log): Promise<ConfirmBurst> {
	const idleFrom = Date.now();
	const used = await untilIdle(pid, IDLE);
	log(`confirm: n8n idle (${Math.round(used)} ms of CPU in ${IDLE.windowMs / 1000} s) after ${Math.round((Date.now() - idleFrom) / 1000)} s`);
	const paid = (await sandbox.records('invoices')).filter((i) => i.status === 'paid');
	const listening = await listen(n8n, credential, 'invoice.paid', version, confirmationWait === null ? undefined : { confirmationWait });
	const { id: subscriptionId } = await sandbox.addWebhook({ url: listening.url, events: ['invoice.paid'] });
	await sandbox.setFaults({ rateLimit: { limit: CONFIRM.limitRps, windowMs: 1000 } });
	const firstSeq = await sandbox.lastRequestSeq();
	const started = Date.now();
	const ids: string[] = [];
	for (let i = 0; i < CONFIRM.burst; i++) {
		const invoice = paid[i % paid.length];
		ids.push(...(await sandbox.emit('invoice.paid', { invoice_id: invoice.id, amount: invoice.total, currency: invoice.currency })).deliveryIds);
	}
	for (;;) {
		if ((await sandbox.deliveries({ done: false })).length === 0) break;
		await sleep(500);
	}
	// Every delivery has ended, delivered or given up on by the ERP: what a count made now would see.
	const listedWhenDone = new Set((await patiently(() => allExecutions(n8n, listening.workflowId))).map((e) => e.id));
	await sandbox.removeWebhook(subscriptionId);
	const deliveries = (await sandbox.deliveries()).filter((d) => ids.includes(d.id) && d.url === listening.url);
	const lastAttempt = Math.max(...deliveries.flatMap((d) => d.attempts.map((a) => Date.parse(a.at))));
	const requests = await sandbox.requests(firstSeq);
	await sandbox.setFaults({ rateLimit: null });
	// A delivery answered while its read waits for its turn becomes an execution once read, up to the trigger's
	// longest hold after its answer; n8n then saves it. Counted after that, with n8n idle and its list holding still.
	await sleep(Math.max(0, lastAttempt + longestHoldMs(version, confirmationWait) - Date.now()));
	await untilIdle(pid, IDLE);
	const { executions, unfinished } = await executionsOnceStill(n8n, listening.workflowId);
	const heldIn = new Map<string, string[]>();
	const confirmedIn = new Map<string, number>();
	const unsure = new Set<string>();
	for (const execution of executions) {
		for (const item of [...nodeOutput(execution, ACTING_STEP), ...nodeOutput(execution, REVIEW_STEP)]) {
			const key = String(item.deliveryKey);
			heldIn.set(key, [...(heldIn.get(key) ?? []), execution.id]);
		}
		for (const item of nodeOutput(execution, ACTING_STEP)) confirmedIn.set(String(item.deliveryKey), (confirmedIn.get(String(item.deliveryKey)) ?? 0) + 1);
		for (const item of nodeOutput(execution, REVIEW_STEP)) {
			if ((item.confirmation as { status: string }).status === 'couldNotConfirm') unsure.add(String(item.deliveryKey));
		}
	}
	const lost = deliveries.filter((d) => !heldIn.has(d.id));
	const lostAnswers: Record<string, number> = {};
	for (const d of lost) {
		const answers = d.attempts.map((a) => String(a.status ?? 'none')).join(',');
		lostAnswers[answers] = (lostAnswers[answers] ?? 0) + 1;
	}
	const ok = (status?: number) => status !== undefined && status >= 200 && status < 300;
	const refused = deliveries.filter((d) => !ok(d.attempts[0]?.status)).length;
	const firstAnswers: Record<string, number> = {};
	for (const d of deliveries) {
		const status = String(d.attempts[0]?.status ?? 'none');
		firstAnswers[status] = (firstAnswers[status] ?? 0) + 1;
	}
	const result: ConfirmBurst = {
		version,
		confirmationWait,
		deliveries: deliveries.length,
		limit_rps: CONFIRM.limitRps,
		firstAttemptOk: deliveries.length - refused,
		refused,
		refusedShare: Math.round((refused / deliveries.length) * 1000) / 1000,
		firstAnswers,
		confirmed: deliveries.filter((d) => confirmedIn.has(d.id)).length,
		couldNotConfirmOnly: deliveries.filter((d) => !confirmedIn.has(d.id) && unsure.has(d.id)).length,
		lost: lost.length,
		lostAnswers,
		countedLate: deliveries.filter((d) => (heldIn.get(d.id) ?? []).length > 0 && heldIn.get(d.id)?.every((id) => !listedWhenDone.has(id))).length,
		failedExecutions: executions.filter((e) => e.status !== 'success').length,
		unfinishedExecutions: unfinished,
		confirmedTwice: [...confirmedIn.values()].filter((n) => n > 1).length,
		refused429: requests.filter((r) => r.status === 429).length,
		seconds: Math.round(lastAttempt - started) / 1000,
	};
	log(`confirm burst: ${JSON.stringify(result)}`);
	return result;
}

const FINISHED: Array<Execution['status']> = ['success', 'error', 'canceled', 'crashed'];
const STILL_MS = 5_000;

/**
 * The workflow's executions with their data once n8n is at rest: the list, ids and statuses, unchanged over STILL_MS.
 * Those still unfinished then are counted, not waited for: under a burst n8n may leave an execution 'new' for good.
 */
async function executionsOnceStill(n8n: N8nClient, workflowId: string): Promise<{ executions: ListedExecution[]; unfinished: number }> {
	let last: string | undefined;
	for (const deadline = Date.now() + 600_000; ; await sleep(STILL_MS)) {
		const listed = await patiently(() => allExecutions(n8n, workflowId));
		const seen = listed.map((e) => `${e.id} ${e.status}`).join(',');
		if (seen === last) {
			const finished = (await patiently(() => allExecutions(n8n, workflowId, true))).filter((e) => FINISHED.includes(e.status));
			// n8n 1.x may list a finished execution before it saved its data.
			const saved = await Promise.all(
				finished.map(async (e) => (e.status !== 'success' || Object.keys(e.data?.resultData.runData ?? {}).length > 0 ? e : { ...e, ...(await patiently(() => finishedExecution(n8n, e.id))) })),
			);
			return { executions: saved, unfinished: listed.length - finished.length };
		}
		if (Date.now() > deadline) throw new Error(`workflow ${workflowId}: its executions did not hold still within 600 s`);
		last = seen;
	}
}

/** n8n's answer, asked again while n8n answers 503 (its database check fails under a burst: "Database is not ready!"). */
async function patiently<T>(ask: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await ask();
		} catch (error) {
			if (attempt >= 30 || !String(error).includes('503')) throw error;
			await sleep(2000);
		}
	}
}

/**
 * What Confirm With the ERP costs a delivery against an ERP `CONFIRM.latencyMs` away (the ERP's
 * wait for the answer and the requests, against version 1), and a burst of `CONFIRM.burst` deliveries against a
 * rate limit of `CONFIRM.limitRps` requests a second. Its own n8n and sandbox; the ERP waits `CONFIRM.erpTimeoutMs`
 * for an answer, as the queue suite's does.
 */
export async function confirm(log: Log): Promise<ConfirmResult> {
	const stack = await startStack({
		owner: OWNER,
		sandbox: { rateLimit: null, overdueSweepMs: 0, webhookTimeoutMs: CONFIRM.erpTimeoutMs, seed: { contacts: 200, invoices: 2400, products: 300 } },
		log,
	});
	try {
		const n8n = new N8nClient(stack.n8n.baseUrl);
		await n8n.signIn(OWNER);
		await n8n.createApiKey('bench confirm');
		const sandbox = new SandboxAdmin(stack.sandbox.url);
		const cost = await costs(n8n, sandbox, stack.credential, log);
		return {
			date: new Date().toISOString(),
			n8n: stack.install.version,
			latency_ms: CONFIRM.latencyMs,
			cost,
			addedMedian_ms: cost.v2.answerMedian_ms - cost.v1.answerMedian_ms,
			burstV1: await burst(n8n, stack.n8n.pid, sandbox, stack.credential, 1, null, log),
			burstDefault: await burst(n8n, stack.n8n.pid, sandbox, stack.credential, 2, null, log),
			burst: await burst(n8n, stack.n8n.pid, sandbox, stack.credential, 2, CONFIRM.burstWait, log),
			erpTimeout_ms: CONFIRM.erpTimeoutMs,
		};
	} finally {
		await stack.stop();
	}
}
