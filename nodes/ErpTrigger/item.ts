import type { IDataObject } from 'n8n-workflow';

import type { ErpDelivery } from './validateDelivery';

/**
 * The item a delivery starts the workflow with: `{event, timestamp, deliveryKey, …added, data}`, or with
 * `dataAtTopLevel` the data's fields beside the others. On a name clash the delivery's own fields (and what the node
 * added, e.g. the confirmation) win, so routing on `$json.event` always sees the event. A delivery without a
 * timestamp gives an item without one.
 */
export function deliveryToJson(delivery: ErpDelivery, key: string, dataAtTopLevel: boolean, added: IDataObject = {}): IDataObject {
	const { data, ...envelope } = delivery;
	return dataAtTopLevel ? { ...data, ...envelope, deliveryKey: key, ...added } : { ...envelope, deliveryKey: key, ...added, data };
}
