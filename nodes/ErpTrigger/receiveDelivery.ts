import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eventKey } from '../shared/eventKey';
import { claimOf, recordIdOf } from './claimedRecord';
import { deliveryKey, isHeaderName } from './deliveryKey';
import { type ErpDelivery, parseDelivery } from './parseDelivery';
import { ALL_EVENTS, DEFAULT_CONFIRMATION_WAIT_S, MAX_CONFIRMATION_WAIT_S } from './properties';
import { confirmDelivery, type Outcome, type ReadBackSettings } from './readBack';
import { type SignatureEncoding, type Verification, type VerificationMethod, verifyDelivery } from './verifyDelivery';

/*
 * A delivery, from the request to the answer: verify → parse → key → confirm → answer. `receive` takes the steps and
 * says what came of them; `answer` alone answers the ERP and hands n8n what to start.
 */

/** A delivery that passed the checks, with its key and how its item is laid out. */
interface Taken {
	delivery: ErpDelivery;
	key: string;
	dataAtTopLevel: boolean;
}

/** What came of a request. */
type Received =
	| { kind: 'refused'; status: 400 | 401; message: string }
	| { kind: 'ignored'; message: string }
	/** Version 1, or version 2 with Confirm With the ERP off. */
	| { kind: 'taken'; taken: Taken }
	/** Confirmed with the ERP (or not) before the answer was due; `late`: contradicted so far, read on after the answer. */
	| { kind: 'judged'; taken: Taken; outcome: Outcome; late?: () => Promise<Outcome> }
	/** No turn of the ERP's pace before the answer was due: answered at once, read in its turn. */
	| { kind: 'held'; taken: Taken; inTurn: () => Promise<Outcome> };

/** Retry-After when the ERP failed without naming a wait. */
const DEFAULT_RETRY_AFTER_S = 30;

const ACCEPTED = 'Event received: it is confirmed with the ERP as soon as its rate limit allows, then the workflow starts';

function readVerification(context: IWebhookFunctions): Verification | undefined {
	const method = context.getNodeParameter('verification', 'none') as VerificationMethod;
	if (method === 'sharedSecret') {
		return { method, headerName: context.getNodeParameter('sharedHeader') as string };
	}
	if (method === 'hmacSha256') {
		return {
			method,
			headerName: context.getNodeParameter('signatureHeader') as string,
			encoding: context.getNodeParameter('signatureEncoding', 'hex') as SignatureEncoding,
		};
	}
	return undefined;
}

function readDeliveryIdHeader(context: IWebhookFunctions, options: IDataObject): string {
	const name = typeof options.deliveryIdHeader === 'string' ? options.deliveryIdHeader.trim() : '';
	if (name !== '' && !isHeaderName(name)) {
		throw new NodeOperationError(
			context.getNode(),
			`Options › Delivery ID Header "${name}" is not a header name: enter the name alone, e.g. X-Delivery-Id, without a colon, spaces or value`,
		);
	}
	return name;
}

function fieldName(value: unknown, fallback: string): string {
	const name = typeof value === 'string' ? value.trim() : '';
	return name === '' ? fallback : name;
}

function readSettings(options: IDataObject): ReadBackSettings {
	const wait = typeof options.confirmationWait === 'number' && Number.isFinite(options.confirmationWait) ? options.confirmationWait : DEFAULT_CONFIRMATION_WAIT_S;
	return {
		waitMs: Math.round(Math.min(Math.max(wait, 0), MAX_CONFIRMATION_WAIT_S) * 1000),
		thresholdField: fieldName(options.thresholdField, 'low_stock_threshold'),
		quantityField: fieldName(options.quantityField, 'quantity'),
	};
}

/** Verify → parse → key → confirm. */
async function receive(context: IWebhookFunctions): Promise<Received> {
	const headers = context.getHeaderData();
	const rawBody = context.getRequestObject().rawBody as Buffer | undefined;

	const verification = readVerification(context);
	if (verification) {
		const { webhookSecret } = await context.getCredentials<{ webhookSecret?: string }>('erpApi');
		if (!webhookSecret) {
			throw new NodeOperationError(
				context.getNode(),
				'The Webhook Signing Secret of the ERP API credential is empty: enter the secret the ERP uses for its webhook, or set Verification to None',
			);
		}
		const refusal = verifyDelivery(verification, webhookSecret, headers, rawBody);
		if (refusal) return { kind: 'refused', status: 401, message: refusal };
	}

	const parsed = parseDelivery(rawBody);
	if ('reason' in parsed) return { kind: 'refused', status: 400, message: parsed.reason };
	const { delivery } = parsed;
	const events = context.getNodeParameter('events', []) as string[];
	if (!events.includes(ALL_EVENTS) && !events.includes(delivery.event)) {
		return { kind: 'ignored', message: `Event ${delivery.event} is not selected in this trigger: ignored` };
	}

	const options = context.getNodeParameter('options', {}) as IDataObject;
	const taken = { delivery, key: deliveryKey(delivery, headers, readDeliveryIdHeader(context, options)), dataAtTopLevel: options.dataAtTopLevel === true };
	if (context.getNodeParameter('confirm', false) !== true) return { kind: 'taken', taken };

	if (claimOf(delivery.event) === undefined && context.getNodeParameter('otherEvents', 'notConfirmed') === 'ignore') {
		return { kind: 'ignored', message: `Event ${delivery.event} cannot be confirmed by the ERP: ignored` };
	}
	const confirming = await confirmDelivery(context, delivery, readSettings(options));
	if ('held' in confirming) return { kind: 'held', taken, inTurn: confirming.held.inTurn };
	return { kind: 'judged', taken, outcome: confirming.judged, ...(confirming.late ? { late: confirming.late } : {}) };
}

/** The record's ID as the delivery names it: the one the confirmation reads, else any `<noun>_id` or `id` given. */
function idOf({ event, data }: ErpDelivery): string {
	const claimed = claimOf(event);
	const found = claimed === undefined ? undefined : recordIdOf(claimed, data);
	if (found !== undefined && 'id' in found) return found.id;
	const given = [`${event.split('.')[0]}_id`, 'id'].map((field) => data[field]).find((value) => typeof value === 'string' || typeof value === 'number');
	return given === undefined ? '' : String(given);
}

/** The occurrence's key: from the record (and stock) the confirmation read, else from the record fields the delivery carries. */
function eventKeyOf(delivery: ErpDelivery, outcome: Outcome | undefined): string {
	const id = idOf(delivery);
	if (outcome?.record === undefined) return eventKey(delivery.event, id, delivery.data);
	const { stock } = outcome.confirmation;
	return eventKey(delivery.event, id, outcome.record, stock && { ...stock, ...(outcome.stockUpdatedAt === undefined ? {} : { updatedAt: outcome.stockUpdatedAt }) });
}

/**
 * The item a delivery starts the workflow with: `{event, timestamp, deliveryKey, eventKey, …added, data}`, or with
 * `dataAtTopLevel` the data's fields beside the others. On a name clash the delivery's own fields (and what the node
 * added, e.g. the confirmation) win, so routing on `$json.event` always sees the event. A delivery without a
 * timestamp gives an item without one.
 */
function itemOf({ delivery, key, dataAtTopLevel }: Taken, outcome?: Outcome): IDataObject {
	const { data, ...envelope } = delivery;
	const keys = { deliveryKey: key, eventKey: eventKeyOf(delivery, outcome) };
	const added: IDataObject = outcome ? { confirmation: outcome.confirmation, ...(outcome.record ? { record: outcome.record } : {}) } : {};
	return dataAtTopLevel ? { ...data, ...envelope, ...keys, ...added } : { ...envelope, ...keys, ...added, data };
}

/** The ERP's answer to a confirmation: 200 when the ERP confirmed, contradicted or cannot be asked (a 2xx, so that an
 * ERP does not send a stale event forever); 503 with Retry-After when the ERP failed, so that an ERP that retries sends
 * it again. */
function confirmationAnswer({ confirmation: { status, reason }, retryAfterMs }: Outcome): { status: 200 | 503; body: IDataObject; retryAfterS?: number } {
	if (status === 'confirmed') return { status: 200, body: { message: 'Event received and confirmed' } };
	if (status === 'contradicted') return { status: 200, body: { message: 'Event received but not confirmed by the ERP', reason } };
	if (status === 'unconfirmable') return { status: 200, body: { message: 'Event received but it cannot be confirmed', reason } };
	const retryAfterS = retryAfterMs === undefined ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil(retryAfterMs / 1000));
	return { status: 503, body: { message: 'Event received but the ERP could not confirm it now: send it again later', reason }, retryAfterS };
}

/**
 * The one place the ERP is answered. Refusals and confirmations are written by the node itself, at once (so n8n
 * starts nothing, or, given workflowData, starts it without an answer of its own: n8n 2.x would answer only once it
 * has saved the execution, which a burst delays past what an ERP waits). Version 1's answers are n8n's.
 * A confirmed delivery starts on Confirmed (output 0), any other on Unconfirmed (output 1; couldNotConfirm too:
 * the document promises no retries).
 */
async function answer(context: IWebhookFunctions, received: Received): Promise<IWebhookResponseData> {
	const write = (status: number, body: IDataObject, retryAfterS?: number) => {
		const response = context.getResponseObject();
		if (retryAfterS !== undefined) response.setHeader('Retry-After', String(retryAfterS));
		response.status(status).json(body);
	};
	const start = (taken: Taken, outcome: Outcome): IWebhookResponseData => {
		const items = context.helpers.returnJsonArray(itemOf(taken, outcome));
		return { noWebhookResponse: true, workflowData: outcome.confirmation.status === 'confirmed' ? [items, []] : [[], items] };
	};
	switch (received.kind) {
		case 'refused':
			write(received.status, { message: received.message });
			return { noWebhookResponse: true };
		case 'ignored':
			return { webhookResponse: { message: received.message } };
		case 'taken':
			return { webhookResponse: { message: 'Event received' }, workflowData: [context.helpers.returnJsonArray(itemOf(received.taken))] };
		case 'judged': {
			const { status, body, retryAfterS } = confirmationAnswer(received.outcome);
			write(status, body, retryAfterS);
			// Contradicted so far: the ERP gets that answer (its body unchanged, for ERP logs that parse it); the workflow
			// starts once the later reads have decided.
			return start(received.taken, received.late ? await received.late() : received.outcome);
		}
		case 'held':
			// The document names no answer: any ERP takes a 200 as delivered.
			write(200, { message: ACCEPTED });
			return start(received.taken, await received.inTurn());
	}
}

/** An ERP's request to the trigger, answered. */
export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	return await answer(context, await receive(context));
}
