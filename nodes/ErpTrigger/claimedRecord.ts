import type { IDataObject } from 'n8n-workflow';

/** The record an event of the document speaks of: its kind, and the path it is read at. */
export interface Claimed {
	noun: 'contact' | 'employee' | 'invoice' | 'product';
	path: string;
}

const contact: Claimed = { noun: 'contact', path: '/contacts' };
const employee: Claimed = { noun: 'employee', path: '/employees' };
const invoice: Claimed = { noun: 'invoice', path: '/invoices' };
const product: Claimed = { noun: 'product', path: '/products' };

/** The six events of the API document (section 6), each with the record the ERP's API can be asked about. */
export const CONFIRMABLE_EVENTS: Readonly<Record<string, Claimed>> = {
	'contact.created': contact,
	'contact.updated': contact,
	'employee.hired': employee,
	'invoice.paid': invoice,
	'invoice.overdue': invoice,
	'product.low_stock': product,
};

export const claimOf = (event: string): Claimed | undefined => (Object.hasOwn(CONFIRMABLE_EVENTS, event) ? CONFIRMABLE_EVENTS[event] : undefined);

/** The fields that may hold the record's ID, in the order they are looked at: `invoice_id` as the document puts it, then `id`. */
export const idFields = ({ noun }: Claimed): string[] => [`${noun}_id`, 'id'];

/** An ID as the document describes `{id}`: an integer, sent as a number or as digits. */
function asId(value: unknown): string | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return value.trim();
	return undefined;
}

/**
 * The ID of the record the delivery speaks of, from the first of its ID fields that holds an integer ID; otherwise
 * why none can be taken (named in the Unconfirmed item). Nothing else of the delivery is trusted.
 */
export function recordIdOf(claimed: Claimed, data: IDataObject): { id: string; field: string } | { reason: string } {
	const fields = idFields(claimed);
	for (const field of fields) {
		const id = asId(data[field]);
		if (id !== undefined) return { id, field };
	}
	const given = fields.find((field) => data[field] !== undefined && data[field] !== null);
	if (given !== undefined) {
		return { reason: `The delivery's data.${given} is ${JSON.stringify(data[given])}, not an integer ${claimed.noun} ID, so the ERP cannot be asked about it` };
	}
	return { reason: `The delivery names no ${claimed.noun}: its data has no ${fields.join(' or ')}, so the ERP cannot be asked about it` };
}
