import type { IDataObject } from 'n8n-workflow';

/*
 * The fields ERPs commonly carry on a record that tell when something happened to it. The API document names only
 * created_at (on a new contact): the others are looked for by the names ERPs commonly give them, first found first.
 */

export const CREATED_AT_FIELDS = ['created_at', 'created_on', 'date_created', 'createdAt'];
export const UPDATED_AT_FIELDS = ['updated_at', 'modified_at', 'updated_on', 'last_modified', 'date_modified', 'updatedAt'];
export const PAID_AT_FIELDS = ['paid_at', 'paid_on', 'payment_date'];
export const DUE_DATE_FIELDS = ['due_date', 'due_on', 'due_at'];

/** The first of the fields the record shows a value in (not null or empty). */
export const shownField = (record: IDataObject, fields: string[]): string | undefined =>
	fields.find((field) => record[field] !== undefined && record[field] !== null && record[field] !== '');

const ZONED = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/**
 * A time as one text: a timestamp with a zone as its UTC ISO form (so `…Z`, `….000Z` and `+00:00` of one instant
 * agree), anything else (a date, a local time, a number) as shown. A local time is not read in n8n's own zone, which
 * another host or a restart may change.
 */
export function normalTime(value: string | number): string {
	const text = String(value).trim();
	if (!ZONED.test(text)) return text;
	const ms = Date.parse(text.replace(' ', 'T'));
	return Number.isNaN(ms) ? text : new Date(ms).toISOString();
}

/** The time in the first of the fields the record shows one in, normalized; undefined when it shows none. */
export function timeOf(record: IDataObject, fields: string[]): string | undefined {
	const field = shownField(record, fields);
	const value = field === undefined ? undefined : record[field];
	return typeof value === 'string' || typeof value === 'number' ? normalTime(value) : undefined;
}

/** Whether time `a` is later than `b` (both normalized); texts that are not timestamps compare as text. */
export function isLater(a: string, b: string): boolean {
	const [x, y] = [Date.parse(a), Date.parse(b)];
	return Number.isNaN(x) || Number.isNaN(y) ? a > b : x > y;
}

/** The invoice's due date as `YYYY-MM-DD` (a timestamp's date part), and the field it is in. */
export function dueDateOf(invoice: IDataObject): { date: string; field: string } | undefined {
	for (const field of DUE_DATE_FIELDS) {
		const value = invoice[field];
		const date = typeof value === 'string' ? /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1] : undefined;
		if (date !== undefined) return { date, field };
	}
	return undefined;
}
