import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { eventKey } from '../shared/eventKey';
import type { WatchConfig } from './config';
import type { Detected } from './detect';

const CREATED: Record<WatchConfig['resource'], string> = {
	contact: 'contact.created',
	invoice: 'invoice.created',
	product: 'product.created',
	employee: 'employee.hired',
	list: 'record.created',
};

/**
 * The event name, the webhook's where one fits (contact.created, contact.updated, invoice.paid, invoice.overdue,
 * product.low_stock, employee.hired), so one trigger can replace the other. A field becoming a value is
 * `<resource>.<value>` for the field `status` (invoice.paid), else `<resource>.<field>.<value>`. Any list's records
 * are `record` (record.created, record.updated, record.shipped): a list's path does not reliably name its records.
 */
export function eventName(config: WatchConfig, kind: Detected['kind']): string {
	const { noun } = config;
	switch (kind) {
		case 'added':
			return CREATED[config.resource];
		case 'updated':
			return `${noun}.updated`;
		case 'lowStock':
			return 'product.low_stock';
		case 'value':
			return config.field === 'status' ? `${noun}.${config.value}` : `${noun}.${config.field}.${config.value}`;
	}
}

/** The data of the event: the record, with the fields the webhook's event of that name carries. */
function eventData(config: WatchConfig, detected: Detected): IDataObject {
	const { record, changes, stock } = detected;
	const id = record.id;
	switch (detected.kind) {
		case 'updated':
			return { ...record, changed_fields: Object.keys(changes ?? {}) };
		case 'lowStock': {
			// Named as in the ERP Trigger's product.low_stock: the ID as product_id, the threshold crossed as low_stock_threshold.
			const { id: product_id, ...fields } = record;
			return { ...fields, product_id, stock_total: stock?.total, low_stock_threshold: stock?.threshold };
		}
		default:
			// The document's invoice.paid carries invoice_id, amount and currency.
			return config.resource === 'invoice'
				? { ...record, invoice_id: id, ...(record.amount === undefined && record.total !== undefined ? { amount: record.total } : {}) }
				: { ...record };
	}
}

/**
 * `{event, timestamp, deliveryKey, eventKey, data}` like the ERP Trigger's items (or data's fields at the top level),
 * plus `changes` for an update. The trigger reports each change once by itself; `deliveryKey` (one per report: the
 * event, the record, the poll) lets a workflow built for the webhook trigger's Remove Duplicates step keep working;
 * `eventKey`, from the record (and stock) the poll read, is the ERP Trigger's for the same occurrence.
 */
export function toItemJson(config: WatchConfig, detected: Detected, timestamp: string): IDataObject {
	const event = eventName(config, detected.kind);
	const deliveryKey = createHash('sha256').update(`${event}\n${detected.id}\n${timestamp}`).digest('hex');
	const envelope: IDataObject = { event, timestamp, deliveryKey, eventKey: eventKey(event, detected.id, detected.record, detected.stock) };
	if (detected.changes) envelope.changes = detected.changes as unknown as IDataObject;
	const data = eventData(config, detected);
	return config.dataAtTopLevel ? { ...data, ...envelope } : { ...envelope, data };
}
