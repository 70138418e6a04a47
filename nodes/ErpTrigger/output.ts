import type { IDataObject } from 'n8n-workflow';

import type { ErpDelivery } from './validateDelivery';

/**
 * The item a delivery starts the workflow with: `{event, timestamp, data}`, or with `dataAtTopLevel` the data's
 * fields beside `event` and `timestamp`. On a name clash the delivery's `event` and `timestamp` win, so routing on
 * `$json.event` always sees the event (none of the ERP's payloads has such a field).
 */
export function deliveryToJson(delivery: ErpDelivery, dataAtTopLevel: boolean): IDataObject {
	const { event, timestamp, data } = delivery;
	return dataAtTopLevel ? { ...data, event, timestamp } : { event, timestamp, data };
}
