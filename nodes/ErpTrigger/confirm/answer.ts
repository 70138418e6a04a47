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

/**
 * Starts the workflow on Confirmed (output 0) or Not Confirmed (output 1), and answers the ERP: 200 when the ERP
 * confirmed, contradicted or cannot be asked (a 2xx, so that an ERP does not send a stale event forever); 503 with
 * Retry-After when the ERP failed during the read-back, so that an ERP that retries sends it again, while the workflow
 * still starts with it on Not Confirmed (the document promises no retries). n8n starts the workflow after a node
 * answered itself when it returns noWebhookResponse with workflowData.
 */
function answer(context: IWebhookFunctions, outcome: Outcome, item: IDataObject): IWebhookResponseData {
	const items = context.helpers.returnJsonArray(item);
	const { status, reason } = outcome.confirmation;
	if (status === 'confirmed') return { webhookResponse: { message: 'Event received and confirmed' }, workflowData: [items, []] };
	const workflowData = [[], items];
	if (status === 'contradicted') return { webhookResponse: { message: 'Event received but not confirmed by the ERP', reason }, workflowData };
	if (status === 'unconfirmable') return { webhookResponse: { message: 'Event received but it cannot be confirmed', reason }, workflowData };
	const retryAfterS = outcome.retryAfterMs === undefined ? DEFAULT_RETRY_AFTER_S : Math.max(1, Math.ceil(outcome.retryAfterMs / 1000));
	const response = context.getResponseObject();
	response.setHeader('Retry-After', String(retryAfterS));
	response.status(503).json({ message: 'Event received but the ERP could not confirm it now: send it again later', reason });
	return { noWebhookResponse: true, workflowData };
}

/** Version 2 with Confirm With the ERP: the delivery, checked and selected, confirmed with the ERP and answered. */
export async function confirmAndAnswer(context: IWebhookFunctions, delivery: ErpDelivery, key: string, options: IDataObject): Promise<IWebhookResponseData> {
	if (claimOf(delivery.event) === undefined && context.getNodeParameter('otherEvents', 'notConfirmed') === 'ignore') {
		return { webhookResponse: { message: `Event ${delivery.event} cannot be confirmed by the ERP: ignored` } };
	}
	const outcome = await confirmDelivery(context, delivery, readSettings(options));
	const added = { confirmation: outcome.confirmation, ...(outcome.record ? { record: outcome.record } : {}) };
	return answer(context, outcome, deliveryToJson(delivery, key, options.dataAtTopLevel === true, added));
}
