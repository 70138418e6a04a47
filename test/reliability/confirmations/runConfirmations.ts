import type { Random } from '../../../sandbox/seed/random';
import type { EventName } from '../../../sandbox/events';
import type { Invoice } from '../../../sandbox/types';
import { ACTING_STEP, activeConfirmingTrigger, triggerBranch } from '../../../tooling/host/confirmingTrigger';
import { erpApi } from '../../../tooling/host/erpApi';
import { executionsAtRest, nodeOutput } from '../../../tooling/host/executions';
import { sleep } from '../../../tooling/host/processes';
import { type ReliabilitySession, scenarioRandom, shuffled } from '../setup/context';
import { nonZero, settle } from '../support/batch';
import { deliveriesDone, isOk, sentInvoices, tokenCount } from '../support/deliveries';
import { confirmationChecks, type SeenItem, type SentDelivery, tallyConfirmations } from './tallyConfirmations';

/** Real deliveries, caused by a change in the ERP through its API (or its warehouse and overdue jobs): how many of each. */
export const REAL_MIX = {
	'contact.created': 250,
	'contact.updated': 150,
	'invoice.paid': 250,
	'invoice.overdue': 50,
	'product.low_stock': 150,
	'employee.hired': 150,
} satisfies Record<EventName, number>;

/** Forged deliveries, posted to the trigger's URL with a claim the ERP does not hold. */
export const FORGED_MIX = {
	'invoice.paid for an unpaid invoice': 250,
	'invoice.paid for no invoice': 100,
	'invoice.overdue for a paid invoice': 100,
	'contact.created for no contact': 150,
	'contact.updated for no contact': 50,
	'employee.hired for no employee': 100,
	'product.low_stock for a well-stocked product': 250,
};

type RealKind = keyof typeof REAL_MIX;
type ForgedKind = keyof typeof FORGED_MIX;
export type Step = { real: true; kind: RealKind } | { real: false; kind: ForgedKind };

const expand = <K extends string>(mix: Record<K, number>) => (Object.entries(mix) as Array<[K, number]>).flatMap(([kind, n]) => Array.from({ length: n }, () => kind));

/** Every step of the run, real and forged mixed in a seeded order. */
export function confirmationPlan(random: Random): Step[] {
	return shuffled(
		[...expand(REAL_MIX).map((kind): Step => ({ real: true, kind })), ...expand(FORGED_MIX).map((kind): Step => ({ real: false, kind }))],
		random,
	);
}

const ID = 'confirmations';

/** Steps run at once; deliveries the sandbox is still attempting before a step waits. */
const WORKERS = 8;
const MAX_PENDING = 16;
/**
 * The sandbox sends a delivery again once, 100 ms after a non-2xx; an ERP that retries keeps at it. A real delivery
 * no attempt of which was answered 2xx is sent again (same id, same bytes) after RESEND_PAUSE_MS, up to RESENDS times.
 */
const RESENDS = 3;
const RESEND_PAUSE_MS = 2000;
const PROGRESS_EVERY = 250;

/**
 * The sandbox's faults during the run: a change becomes readable 1 s after it is made, within the trigger's
 * default Confirmation Wait (reads at 0, 0.5 and 1.5 s).
 */
const FAULTS = { errorRate: 0.05, dropRate: 0.03, visibleAfterMs: 1000 };
/** Queued half-way: the next GETs all answered 429 (Retry-After 1 s). */
const STORM = { match: { method: 'GET' }, fault: { kind: 'rateLimit' as const, retryAfter: 1 }, times: 200 };

/** Sent invoices (and paid ones) made through the API before the trigger listens: no event reaches it. */
async function preparePools(session: ReliabilitySession) {
	await session.sandbox.seed({ contacts: 40, products: 550, seed: 44 });
	const contacts = (await session.sandbox.records('contacts')).map((c) => c.id);
	let made = 0;
	const line = { description: 'Consulting', quantity: 2, unit_price: 150, tax_rate: 20 };
	const many = (n: number, paid: boolean) => sentInvoices(session, n, line, () => contacts[made++ % contacts.length], paid);
	const stocked = (await session.sandbox.records('products')).filter((p) => p.stock_total >= p.low_stock_threshold + 1);
	const toEmpty = REAL_MIX['product.low_stock'];
	if (stocked.length < toEmpty + FORGED_MIX['product.low_stock for a well-stocked product']) throw new Error(`only ${stocked.length} well-stocked products seeded`);
	return {
		contacts,
		// Sent invoices Mark as Paid turns into real invoice.paid; others that stay unpaid, and paid ones, for forgeries.
		toPay: await many(REAL_MIX['invoice.paid'], false),
		unpaid: await many(FORGED_MIX['invoice.paid for an unpaid invoice'], false),
		paid: await many(FORGED_MIX['invoice.overdue for a paid invoice'], true),
		// Well-stocked products a warehouse empties (real low stock), and others that stay stocked (forged).
		toEmpty: stocked.slice(0, toEmpty).map((p) => ({ id: p.id, threshold: p.low_stock_threshold })),
		stocked: stocked.slice(toEmpty).map((p) => p.id),
	};
}

type Pools = Awaited<ReturnType<typeof preparePools>>;

/** A write through the faulty API: sent again until answered (a write struck after its commit has happened: the sandbox's log of deliveries is the truth). */
async function write(session: ReliabilitySession, method: string, path: string, body: unknown): Promise<void> {
	for (let attempt = 0; attempt < 6; attempt++) {
		try {
			await erpApi(session.ctx, method, path, body);
			return;
		} catch {
			await sleep(100);
		}
	}
}

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** Performs one step: a change in the ERP (its event follows), or a forged delivery. */
function stepRunner(session: ReliabilitySession, pools: Pools, subscriptionId: number) {
	let n = 0;
	const next = <T>(list: T[]) => list[n++ % list.length];
	const queues = { toPay: [...pools.toPay], toEmpty: [...pools.toEmpty] };
	const ghost = () => 900_000 + n++;
	// What each forged delivery claims: an event the ERP never had.
	const forged: Record<ForgedKind, () => [string, Record<string, unknown>]> = {
		'invoice.paid for an unpaid invoice': () => ['invoice.paid', { invoice_id: next(pools.unpaid), amount: 360, currency: 'EUR' }],
		'invoice.paid for no invoice': () => ['invoice.paid', { invoice_id: ghost(), amount: 1, currency: 'EUR' }],
		'invoice.overdue for a paid invoice': () => ['invoice.overdue', { invoice_id: next(pools.paid), amount_due: 360, currency: 'EUR' }],
		'contact.created for no contact': () => ['contact.created', { id: ghost(), first_name: 'Forged' }],
		'contact.updated for no contact': () => ['contact.updated', { id: ghost(), changed_fields: ['email'] }],
		'employee.hired for no employee': () => ['employee.hired', { id: ghost(), first_name: 'Forged' }],
		'product.low_stock for a well-stocked product': () => ['product.low_stock', { product_id: next(pools.stocked), stock_total: 0, low_stock_threshold: 10 }],
	};
	return async (step: Step): Promise<void> => {
		const i = n++;
		if (!step.real) {
			const [event, data] = forged[step.kind]();
			return session.sandbox.forge({ event, data, subscriptionId }).then(() => undefined);
		}
		switch (step.kind) {
			case 'contact.created':
				return write(session, 'POST', '/contacts', { first_name: 'Real', last_name: `Customer ${i}`, email: `real.${i}@example.com` });
			case 'contact.updated':
				return write(session, 'PUT', `/contacts/${next(pools.contacts)}`, { company: `Renamed ${i} Ltd` });
			case 'invoice.paid':
				return write(session, 'POST', `/invoices/${queues.toPay.shift()}/mark-paid`, {});
			case 'employee.hired':
				return write(session, 'POST', '/employees', { first_name: 'Real', last_name: `Hire ${i}`, email: `hire.${i}@example.com` });
			case 'product.low_stock': {
				const product = queues.toEmpty.shift() as Pools['toEmpty'][number];
				for (const warehouse of [1, 2, 3]) await session.sandbox.setStock({ product_id: product.id, warehouse_id: warehouse, quantity: warehouse === 3 ? product.threshold - 1 : 0 });
				return;
			}
			case 'invoice.overdue': {
				const contact = next(pools.contacts);
				let id: number | undefined;
				for (let attempt = 0; attempt < 6 && id === undefined; attempt++) {
					id = await erpApi<Invoice>(session.ctx, 'POST', '/invoices', {
						contact_id: contact,
						issue_date: isoDay(-40),
						due_date: isoDay(-10),
						lines: [{ description: 'Support', unit_price: 90 }],
					}).then((created) => created.id, () => undefined);
				}
				if (id === undefined) return;
				await write(session, 'POST', `/invoices/${id}/send`, { email: 'ap@example.com' });
				await session.sandbox.sweep();
				return;
			}
		}
	};
}

/** Runs the steps with WORKERS at once, each waiting while the sandbox attempts MAX_PENDING deliveries; the storm half-way. */
async function runSteps(session: ReliabilitySession, steps: Step[], run: (step: Step) => Promise<void>, log: (line: string) => void): Promise<void> {
	let pending = 0;
	let stopped = false;
	const poller = (async () => {
		while (!stopped) {
			pending = (await session.sandbox.deliveries({ done: false })).length;
			await sleep(100);
		}
	})();
	let index = 0;
	const worker = async () => {
		while (index < steps.length) {
			const step = steps[index++];
			if (index % PROGRESS_EVERY === 0) log(`confirmations: step ${index} of ${steps.length}, ${pending} deliveries in flight`);
			if (index === Math.floor(steps.length / 2)) await session.sandbox.queueFault(STORM);
			while (pending >= MAX_PENDING) await sleep(50);
			pending++;
			await run(step);
		}
	};
	try {
		await Promise.all(Array.from({ length: WORKERS }, worker));
		await deliveriesDone(session);
	} finally {
		stopped = true;
		await poller;
	}
}

type Logged = SentDelivery & { body: unknown };

/** The deliveries to the trigger, one per id: a resent one's attempts joined to its first sending's. */
async function sentTo(session: ReliabilitySession, url: string): Promise<Logged[]> {
	const byId = new Map<string, Logged>();
	for (const d of (await session.sandbox.deliveries()).filter((delivery) => delivery.url === url)) {
		const statuses = d.attempts.map((a) => a.status);
		const known = byId.get(d.id);
		if (known) known.statuses.push(...statuses);
		else byId.set(d.id, { id: d.id, event: d.event, forged: d.forged, statuses, body: d.body });
	}
	return [...byId.values()];
}

const answeredOk = (d: SentDelivery) => d.statuses.some(isOk);

/** Sends the real deliveries never answered 2xx again, as an ERP that retries would; answers how many it resent. */
async function resendUnanswered(session: ReliabilitySession, url: string, subscriptionId: number, log: (line: string) => void): Promise<number> {
	const resent = new Set<string>();
	for (let round = 0; round < RESENDS; round++) {
		const unanswered = (await sentTo(session, url)).filter((d) => !d.forged && !answeredOk(d));
		if (unanswered.length === 0) break;
		log(`confirmations: sending ${unanswered.length} real deliveries again (round ${round + 1})`);
		await sleep(RESEND_PAUSE_MS);
		for (const d of unanswered) {
			resent.add(d.id);
			await session.sandbox.forge({ event: d.event, body: d.body, deliveryId: d.id, subscriptionId });
		}
		await deliveriesDone(session);
	}
	return resent.size;
}

/**
 * About 1,000 real deliveries (caused by changes in the ERP) and 1,000 forged ones, mixed, to an ERP Trigger
 * version 2 with confirmation, while the API fails (500s, drops, a 429 storm) and shows changes only a second
 * late. Judged against the sandbox's log of what it sent: real ones confirmed or passed on as could not confirm,
 * forged ones never on Confirmed, none confirmed twice, the token in no output.
 */
export async function runConfirmationScenario(session: ReliabilitySession, log: (line: string) => void) {
	const started = Date.now();
	await session.sandbox.reset();
	const pools = await preparePools(session);
	const trigger = await activeConfirmingTrigger(session.n8n, session.sandbox, 'reliability: confirmed events', Object.keys(REAL_MIX) as EventName[], session.ctx.credentials.good);
	const firstSeq = await session.sandbox.lastRequestSeq();
	await session.sandbox.setFaults({ ...FAULTS, seed: session.ctx.faultSeed });
	const steps = confirmationPlan(scenarioRandom(session.ctx.faultSeed, ID));
	await runSteps(session, steps, stepRunner(session, pools, trigger.subscriptionId as number), log);
	const resent = await resendUnanswered(session, trigger.url, trigger.subscriptionId as number, log);
	const lastSeq = await settle(session);
	const sent = (await sentTo(session, trigger.url)).map(({ id, event, forged, statuses }) => ({ id, event, forged, statuses }));
	const answered = sent.reduce((n, d) => n + d.statuses.filter((status) => status !== undefined).length, 0);
	// Each attempt answered 2xx started an execution; one answered 503 may have (the trigger's) or not (n8n's own).
	const answered2xx = sent.reduce((n, d) => n + d.statuses.filter(isOk).length, 0);
	log(`confirmations: ${sent.length} deliveries sent, ${answered} attempts answered (${answered2xx} 2xx); waiting for their executions`);
	const executions = await executionsAtRest(session.n8n, trigger.workflow.id, answered2xx);
	const seen: SeenItem[] = executions.flatMap((execution) => {
		const acted = new Set(nodeOutput(execution, ACTING_STEP).map((item) => item.deliveryKey));
		return [...triggerBranch(execution, 0), ...triggerBranch(execution, 1)].map((item) => ({
			executionId: execution.id,
			deliveryKey: item.deliveryKey,
			status: item.confirmation.status,
			reason: item.confirmation.reason,
			acted: acted.has(item.deliveryKey),
		}));
	});
	const text = JSON.stringify(executions);
	const tokenLeaks = tokenCount(session, text);
	const requests = (await session.sandbox.requests(firstSeq)).filter((r) => r.seq < lastSeq);
	const triggerReads = requests.filter((r) => r.method === 'GET').length;
	const tally = tallyConfirmations(sent, seen);
	return {
		id: ID,
		title: 'Confirmed events: real and forged deliveries, mixed, while the ERP fails and shows changes late',
		settings: { faults: FAULTS, storm: STORM, trigger: 'defaults', workers: WORKERS, maxPending: MAX_PENDING, resends: RESENDS, resendPauseMs: RESEND_PAUSE_MS, real: REAL_MIX, forged: FORGED_MIX },
		// Real deliveries sent again after the sandbox's own retry was answered other than 2xx too (each counts once).
		resent,
		...tally,
		executions: executions.length,
		errorExecutions: executions.filter((e) => e.status === 'error').length,
		// The trigger's API requests per delivery (GETs in the run over deliveries sent); faults: random ones and the storm.
		requestsPerDelivery: sent.length === 0 ? 0 : Math.round((triggerReads / sent.length) * 100) / 100,
		faultsStruck: requests.filter((r) => r.fault).length,
		tokenLeaks,
		wallMs: Date.now() - started,
		failures: [
			...nonZero(confirmationChecks(tally, tokenLeaks)),
			...(tally.real.deliveries < 1000 ? [`only ${tally.real.deliveries} real deliveries (1,000 wanted)`] : []),
			...(tally.forged.deliveries < 1000 ? [`only ${tally.forged.deliveries} forged deliveries (1,000 wanted)`] : []),
		],
	};
}

export type ConfirmationScenarioResult = Awaited<ReturnType<typeof runConfirmationScenario>>;
