import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { canonicalJson } from './canonicalJson';
import type { StockSeen } from './lowStock';
import { CREATED_AT_FIELDS, dueDateOf, normalTime, PAID_AT_FIELDS, timeOf, UPDATED_AT_FIELDS } from './recordFields';

/*
 * The key of one occurrence in the ERP, the same whichever trigger reports it and however often: made from the record
 * as the ERP holds it (read by the confirmation or the poll), never from what a sender alone chooses (a delivery's
 * timestamp or id). docs/api-assumptions.md, "Event keys", says what each event's key can and cannot tell apart.
 */

const isCreation = (event: string) => event === 'employee.hired' || event.endsWith('.created');

/** What tells this occurrence from another of the same event and record ('' when the id alone must). */
function occurrence(event: string, record: IDataObject, stock: StockSeen | undefined): string {
	if (event === 'invoice.paid') return timeOf(record, PAID_AT_FIELDS) ?? '';
	if (event === 'invoice.overdue') return dueDateOf(record)?.date ?? '';
	if (event === 'product.low_stock' && stock !== undefined) {
		return stock.updatedAt === undefined ? `stock ${stock.total} below ${stock.threshold}` : normalTime(stock.updatedAt);
	}
	if (isCreation(event)) return timeOf(record, CREATED_AT_FIELDS) ?? '';
	return timeOf(record, UPDATED_AT_FIELDS) ?? canonicalJson(record);
}

/** SHA-256 (hex) of the event, the record's id (42 and "42" alike) and what marks the occurrence. */
export function eventKey(event: string, id: string | number, record: IDataObject, stock?: StockSeen): string {
	const text = canonicalJson([event, String(id).trim(), occurrence(event, record, stock)]);
	return createHash('sha256').update(text, 'utf8').digest('hex');
}
