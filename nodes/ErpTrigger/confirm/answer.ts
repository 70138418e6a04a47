import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { deliveryToJson } from '../item';
import type { ErpDelivery } from '../validateDelivery';
import { DEFAULT_CONFIRMATION_WAIT_S, MAX_CONFIRMATION_WAIT_S } from './properties';
import { confirmDelivery, type Outcome, type ReadBackSettings } from './readBack';
import { claimOf } from './recordId';

/** Retry-After when the ERP failed without naming a wait. */
const DEFAULT_RETRY_AFTER_S = 30;

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

/** Answers the ERP itself, at once: n8n 2.x would answer only once it has saved the execution, which a burst delays
 * past what an ERP waits (an answer that comes too late makes the ERP send the delivery again). */
function respond(context: IWebhookFunctions, status: number, body: IDataObject, retryAfterS?: number): void {
	const response = context.getResponseObject();
	if (retryAfterS !== undefined) response.setHeader('Retry-After', String(retryAfterS));
	response.status(status).json(body);
}

/** The answer to a delivery whose read-back ended before its deadline: 200 when the ERP confirmed, contradicted or
 * cannot be asked (a 2xx, so that an ERP does not send a stale event forever); 503 with Retry-After when the ERP
 * failed during the read-back, so that an ERP that retries sends it again. */
function answerOutcome(context: IWebhookFunctions, { confirmation: { status, reason }, retryAfterMs }: Outcome): void {
	if (status === 'confirmed') return respond(context, 200, { message: 'Event received and confirmed' });
	if (status === 'contradicted') return respond(context, 200, { message: 'Event received but not confirmed by the ERP', reason });
	if (status === 'unconfirmable') return respond(context, 200, { message: 'Event received but it cannot be confirmed', reason });
	const retryAfterS = retryAfterMs === undefined ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil(retryAfterMs / 1000));
	respond(context, 503, { message: 'Event received but the ERP could not confirm it now: send it again later', reason }, retryAfterS);
}

/**
 * Version 2 with Confirm With the ERP: the delivery, checked and selected, confirmed with the ERP, answered, and
 * started on Confirmed (output 0) or Not Confirmed (output 1; couldNotConfirm too: the document promises no
 * retries). A delivery whose read waits past its deadline for the ERP's pace is answered 200 at once (the document
 * names no answer: any ERP takes a 200 as delivered) and started once read. n8n starts the workflow after a node answered itself when it returns noWebhookResponse with workflowData.
 */
export async function confirmAndAnswer(context: IWebhookFunctions, delivery: ErpDelivery, key: string, options: IDataObject): Promise<IWebhookResponseData> {
	if (claimOf(delivery.event) === undefined && context.getNodeParameter('otherEvents', 'notConfirmed') === 'ignore') {
		return { webhookResponse: { message: `Event ${delivery.event} cannot be confirmed by the ERP: ignored` } };
	}
	let accepted = false;
	const accept = () => {
		accepted = true;
		respond(context, 200, { message: 'Event received: it is confirmed with the ERP as soon as its rate limit allows, then the workflow starts' });
	};
	const outcome = await confirmDelivery(context, delivery, readSettings(options), accept);
	if (!accepted) answerOutcome(context, outcome);
	const added = { confirmation: outcome.confirmation, ...(outcome.record ? { record: outcome.record } : {}) };
	const items = context.helpers.returnJsonArray(deliveryToJson(delivery, key, options.dataAtTopLevel === true, added));
	return { noWebhookResponse: true, workflowData: outcome.confirmation.status === 'confirmed' ? [items, []] : [[], items] };
}
