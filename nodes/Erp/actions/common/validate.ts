import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** A value a user typed or mapped, checked before any request, with an error that names the field and the fix. */
export type FieldKind =
	| 'text'
	| 'email'
	| 'phone'
	| 'currency'
	| 'date'
	| 'dateTime'
	| 'positiveNumber'
	| 'nonNegativeNumber'
	| 'nonNegativeInteger'
	| 'recordId'
	| 'boolean'
	| 'sku';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// International format as the API document asks: a leading +, then 7–15 digits; spaces, dots, dashes and
// parentheses between them, as in +1 (212) 555-0100.
const PHONE_SHAPE = /^\+\d(?:[\s().-]*\d)*$/;
const PHONE_DIGITS = /^(?:\D*\d){7,15}\D*$/;
const SKU = /^[A-Za-z0-9._-]{1,64}$/;

function shown(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
}

function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
	return undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar day a value names. A text that starts with YYYY-MM-DD (n8n's date picker gives
 * 2026-11-01T00:00:00) means that day, whatever the time and zone after it: converting it to UTC first would
 * move it to the day before east of Greenwich. Other texts and Date values are read in local time.
 */
function toDay(value: unknown): string | undefined {
	const date = toDate(value);
	if (!date) return undefined;
	const prefix = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/.exec(value.trim()) : null;
	if (!prefix) return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
	const [, year, month, day] = prefix.map(Number);
	const utc = new Date(Date.UTC(year, month - 1, day));
	// 2026-02-30 is not a day, even though Date would roll it over to March.
	return utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day ? prefix[0] : undefined;
}

function toDate(value: unknown): Date | undefined {
	if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
	const date = new Date(value as string);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Returns the value in the form the API expects, or a sentence saying what is wrong and how to fix it. */
function check(kind: FieldKind, value: unknown, label: string): { value: unknown } | { problem: string } {
	switch (kind) {
		case 'text':
			if (typeof value === 'string' || typeof value === 'number') return { value: String(value).trim() };
			return { problem: `${label} must be text, not ${shown(value)}` };
		case 'email': {
			const text = typeof value === 'string' ? value.trim() : '';
			if (EMAIL.test(text)) return { value: text };
			return { problem: `${label} ${shown(value)} is not a valid e-mail address: use the form name@example.com` };
		}
		case 'phone': {
			const text = typeof value === 'string' ? value.trim() : String(value);
			if (PHONE_SHAPE.test(text) && PHONE_DIGITS.test(text)) return { value: text };
			return {
				problem: `${label} ${shown(value)} is not in international format: start with + and the country code, e.g. +49 30 1234567`,
			};
		}
		case 'currency': {
			const text = typeof value === 'string' ? value.trim().toUpperCase() : '';
			if (/^[A-Z]{3}$/.test(text)) return { value: text };
			return { problem: `${label} ${shown(value)} is not a currency code: use three letters such as EUR or USD` };
		}
		case 'date': {
			const day = toDay(value);
			if (day) return { value: day };
			return { problem: `${label} ${shown(value)} is not a date: use the form 2026-12-31` };
		}
		case 'dateTime': {
			const date = toDate(value);
			if (date) return { value: date.toISOString() };
			return { problem: `${label} ${shown(value)} is not a date and time: use the form 2026-12-31T14:30:00Z` };
		}
		case 'positiveNumber': {
			const n = toNumber(value);
			if (n !== undefined && n > 0) return { value: n };
			return { problem: `${label} must be a number greater than 0, not ${shown(value)}` };
		}
		case 'nonNegativeNumber': {
			const n = toNumber(value);
			if (n !== undefined && n >= 0) return { value: n };
			return { problem: `${label} must be a number of 0 or more, not ${shown(value)}` };
		}
		case 'nonNegativeInteger': {
			const n = toNumber(value);
			if (n !== undefined && Number.isInteger(n) && n >= 0) return { value: n };
			return { problem: `${label} must be a whole number of 0 or more, not ${shown(value)}` };
		}
		case 'recordId': {
			const n = toNumber(value);
			if (n !== undefined && Number.isSafeInteger(n) && n >= 1) return { value: n };
			return { problem: `${label} must be the ID of a record, a whole number of 1 or more, not ${shown(value)}` };
		}
		case 'boolean':
			if (typeof value === 'boolean') return { value };
			if (value === 'true' || value === 'false') return { value: value === 'true' };
			return { problem: `${label} must be true or false, not ${shown(value)}` };
		case 'sku': {
			const text = typeof value === 'string' ? value.trim() : String(value);
			if (SKU.test(text)) return { value: text };
			return { problem: `${label} ${shown(value)} may only use letters, digits, - _ and . (1–64 characters), e.g. CHAIR-OAK-01` };
		}
	}
}

export function validateField(
	this: IExecuteFunctions,
	kind: FieldKind,
	value: unknown,
	label: string,
	itemIndex: number,
): unknown {
	const result = check(kind, value, label);
	if ('problem' in result) throw new NodeOperationError(this.getNode(), result.problem, { itemIndex });
	return result.value;
}

/** Whether a parameter was left empty (and so is not sent). */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
