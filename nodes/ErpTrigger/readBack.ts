import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { type Stock, stockLevel, thresholdOf } from '../shared/lowStock';
import type { ErpClient, RequestContext } from '../shared/transport/client';
import { asNodeError } from '../shared/transport/errors';
import { type Claimed, claimOf, CONFIRMABLE_EVENTS, recordIdOf } from './claimedRecord';
import { judge, judgeStock, type Verdict } from './confirmRules';
import type { ErpDelivery } from './parseDelivery';
import { readByDeadline, type ReadResult } from './readByDeadline';

export type ConfirmationStatus = 'confirmed' | 'contradicted' | 'couldNotConfirm' | 'unconfirmable';

/** What the item says of its confirmation; product.low_stock adds the stock the decision used. */
export type Confirmation = {
	status: ConfirmationStatus;
	reason?: string;
	stock?: Stock;
};

/** A delivery's confirmation, the record read (the last one, when it was read again), and the wait an ERP that failed named. */
export interface Outcome {
	confirmation: Confirmation;
	record?: IDataObject;
	/** product.low_stock: the newest update time the stock records show (for the item's eventKey). */
	stockUpdatedAt?: string;
	retryAfterMs?: number;
}

export interface ReadBackSettings {
	/** How long a contradicted record is read again for (ms); 0 reads once. */
	waitMs: number;
	thresholdField: string;
	quantityField: string;
}

const FIRST_WAIT_MS = 500;
/** Time for the last read (and its retries) after the waits: every request ends by the deadline this leaves. */
export const LAST_READ_MS = 1_000;
/**
 * How long a read may wait for its turn of the ERP's pace (or a wait the ERP named) once the delivery was accepted
 * because that wait ran past the answer's deadline: a burst is confirmed at the pace the ERP allows, not refused. A
 * longer wait is refused with Retry-After: an ERP that retries sends the delivery again, and n8n holds no long queue.
 */
export const HOLD_MS = 60_000;
/**
 * How long after a delivery arrived a record the ERP still contradicts is read again, after the answer when
 * Confirmation Wait ends sooner: read replicas and caches lag behind the ERP's writes by seconds, so a real event can
 * come before the API shows it. The gaps go on doubling, so a forged delivery costs a few reads more, not a stream.
 */
export const LATE_VISIBILITY_MS = 10_000;
const THRESHOLD_FIX = 'set Options › Threshold Field to the product field holding its threshold';

/** The waits between reads: 0.5, 1, 2, 4 s… while the next read still starts within `waitMs` of the first. */
export function readSchedule(waitMs: number): number[] {
	const waits: number[] = [];
	for (let next = FIRST_WAIT_MS, total = next; total <= waitMs; next *= 2, total += next) waits.push(next);
	return waits;
}

const unconfirmable = (reason: string, record?: IDataObject): Outcome => ({ confirmation: { status: 'unconfirmable', reason }, ...(record ? { record } : {}) });
const fromVerdict = (verdict: Verdict, record: IDataObject, stock?: Stock): Outcome => ({
	confirmation: { ...verdict, ...(stock ? { stock } : {}) },
	record,
});

/** GET {path}/{id}: the record, or undefined when the ERP answers 404. */
async function readRecord(client: ErpClient, { noun, path }: Claimed, id: string): Promise<IDataObject | undefined> {
	try {
		const { data } = await client.request({ method: 'GET', path: `${path}/${id}`, expect: 'record', doing: { action: `read ${noun} ${id}`, noun, id } });
		return data as IDataObject;
	} catch (error) {
		if (error instanceof NodeApiError && String(error.httpCode) === '404') return undefined;
		throw asNodeError(client.node, error);
	}
}

/** One read of what the event claims; a failing request throws. */
async function readOnce(client: ErpClient, event: string, claimed: Claimed, id: string, settings: ReadBackSettings): Promise<Outcome> {
	const record = await readRecord(client, claimed, id);
	if (record === undefined) return { confirmation: { status: 'contradicted', reason: `The ERP has no ${claimed.noun} ${id} (404)` } };
	if (event !== 'product.low_stock') return fromVerdict(judge(event, record, id, new Date()), record);
	let stock: Stock;
	let stockUpdatedAt: string | undefined;
	try {
		const threshold = thresholdOf(client, record, id, { kind: 'field', field: settings.thresholdField }, THRESHOLD_FIX);
		const level = await stockLevel(client, id, settings.quantityField);
		stock = { total: level.total, threshold };
		stockUpdatedAt = level.updatedAt;
	} catch (error) {
		// A product without a threshold or quantity where the options say: no wait changes that.
		if (error instanceof NodeOperationError) return unconfirmable(error.message, record);
		throw asNodeError(client.node, error);
	}
	return { ...fromVerdict(judgeStock(id, stock), record, stock), ...(stockUpdatedAt === undefined ? {} : { stockUpdatedAt }) };
}

/** Why the ERP will not send a delivery again whose read failed after the ERP was answered 200. */
const ANSWERED_WHILE_HELD = ' (the ERP was answered 200 while this read waited its turn, so it will not send the event again)';
const ANSWERED_BEFORE_LATE_READ = ' (the ERP was answered 200 before this later read, so it will not send the event again)';

/** `answered`: why the ERP, already answered 200, will not send it again (no Retry-After then). */
function couldNotConfirm(failure: { failed: unknown; waitMs?: number }, claimed: Claimed, id: string, answered?: string): Outcome {
	const { failed: error, waitMs } = failure;
	const said = error instanceof Error ? error.message : String(error);
	return {
		confirmation: { status: 'couldNotConfirm', reason: `Reading ${claimed.noun} ${id} from the ERP failed: ${said}${answered ?? ''}` },
		...(waitMs === undefined || answered !== undefined ? {} : { retryAfterMs: waitMs }),
	};
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * What the confirmation came to before the answer was due (`judged`), or `held`: the ERP's pace, or a wait it named,
 * leaves the read no turn before the answer's deadline but one within HOLD_MS. The ERP is then answered at once and
 * `inTurn` reads in that turn. `late`: the ERP contradicted the event until the answer was due; it is answered with
 * `judged`, and the workflow starts with what `late` comes to, reading on until LATE_VISIBILITY_MS after the arrival.
 */
export type Confirming = { judged: Outcome; late?: () => Promise<Outcome> } | { held: { inTurn: () => Promise<Outcome> } };

/**
 * Asks the ERP whether the delivery's event holds: reads the record it names (and a product's stock) through the
 * node's transport, again on the schedule while the ERP contradicts it (a real event may come before the API shows
 * the change), all within `waitMs` plus LAST_READ_MS, the answer's deadline; then, still contradicted, on after the
 * answer (see LATE_VISIBILITY_MS). An event outside the six, or without a record ID, is unconfirmable without a request.
 */
export async function confirmDelivery(context: RequestContext, delivery: ErpDelivery, settings: ReadBackSettings): Promise<Confirming> {
	const claimed = claimOf(delivery.event);
	if (claimed === undefined) {
		return { judged: unconfirmable(`The ERP API has no way to confirm ${delivery.event}: only ${Object.keys(CONFIRMABLE_EVENTS).join(', ')} can be confirmed`) };
	}
	const found = recordIdOf(claimed, delivery.data);
	if ('reason' in found) return { judged: unconfirmable(found.reason) };
	const { id } = found;

	const read = readByDeadline(context);
	const readNow = async (deadlineAt: number) => await read(deadlineAt, (client) => readOnce(client, delivery.event, claimed, id, settings));
	const waits = readSchedule(settings.waitMs);
	const startedAt = Date.now();
	let waited = 0;
	let contradictions = 0;
	let lastReadAt = startedAt;
	/** Whether the read came back contradicted (counted then). */
	const contradicted = (result: ReadResult<Outcome>): boolean => {
		if (!('value' in result) || result.value.confirmation.status !== 'contradicted') return false;
		contradictions++;
		lastReadAt = Date.now();
		return true;
	};
	/** A contradicted outcome whose reason says how often and how long it was read, when more than once. */
	const counted = (outcome: Outcome): Outcome =>
		contradictions < 2 ? outcome : { ...outcome, confirmation: { ...outcome.confirmation, reason: `${outcome.confirmation.reason}, read ${contradictions} times over ${seconds(lastReadAt - startedAt)}` } };
	/** The reads of the schedule (going on where a held one stopped) until one is not contradicted, or the last. */
	const readOnSchedule = async (deadlineAt: number): Promise<ReadResult<Outcome>> => {
		for (;;) {
			const result = await readNow(deadlineAt);
			if (!contradicted(result) || waited >= waits.length) return result;
			await sleep(waits[waited++]);
		}
	};
	/**
	 * After the schedule, with the ERP answered: the gaps go on doubling while a read can start within
	 * LATE_VISIBILITY_MS of the arrival. A read the ERP's pace (or a wait it named) leaves no turn in that window ends
	 * the reading as contradicted; one that fails, as couldNotConfirm.
	 */
	const readLate = async (last: Outcome): Promise<Outcome> => {
		const windowEndsAt = startedAt + LATE_VISIBILITY_MS;
		for (let gap = FIRST_WAIT_MS * 2 ** waited; Date.now() + gap <= windowEndsAt; gap *= 2) {
			await sleep(gap);
			const result = await readNow(windowEndsAt + LAST_READ_MS);
			if (!('value' in result)) {
				if (result.waitMs === undefined) return couldNotConfirm(result, claimed, id, ANSWERED_BEFORE_LATE_READ);
				break;
			}
			if (!contradicted(result)) return result.value;
			last = result.value;
		}
		return counted(last);
	};

	const first = await readOnSchedule(startedAt + settings.waitMs + LAST_READ_MS);
	if ('value' in first) {
		const { value } = first;
		return value.confirmation.status === 'contradicted' ? { judged: counted(value), late: async () => await readLate(value) } : { judged: value };
	}
	if (first.waitMs === undefined || first.waitMs > HOLD_MS) return { judged: couldNotConfirm(first, claimed, id) };
	return {
		held: {
			inTurn: async () => {
				const inTurn = await readOnSchedule(Date.now() + HOLD_MS + settings.waitMs + LAST_READ_MS);
				if (!('value' in inTurn)) return couldNotConfirm(inTurn, claimed, id, ANSWERED_WHILE_HELD);
				return inTurn.value.confirmation.status === 'contradicted' ? await readLate(inTurn.value) : inTurn.value;
			},
		},
	};
}
