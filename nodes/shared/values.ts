import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from './transport/types';

/**
 * How a field's value is checked before it is sent. Only what the API document states is checked (an e-mail
 * address, a phone number in international format with a leading +, an integer ID, a date); lengths, character
 * sets, ranges and lists of allowed values are the ERP's to judge, and its 422 names the field.
 * `number` and `boolean` follow the node's own parameter types: a value that cannot be one is refused.
 */
export type FieldKind = 'text' | 'email' | 'phone' | 'date' | 'dateTime' | 'number' | 'boolean' | 'recordId' | 'object';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// International format (E.164: at most 15 digits) with the + the document asks for; spaces, dots, dashes,
// slashes and parentheses may group the digits, as in +1 (212) 555-0100.
const PHONE_SHAPE = /^\+\d(?:[\s()./-]*\d)*$/;
const PHONE_DIGITS = /^(?:\D*\d){7,15}\D*$/;

function shown(value: unknown): string {
	return typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
}

/** A number, or a string that is one (an ERP or an expression may give either); undefined otherwise. */
export function toNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
	return undefined;
}

/** A Luxon DateTime, as n8n's resource mapper hands over a field of type dateTime (duck-typed: no import). */
interface DateTimeLike {
	toISODate(): string | null;
	toMillis(): number;
}

const isDateTimeLike = (value: unknown): value is DateTimeLike =>
	typeof (value as DateTimeLike | null)?.toISODate === 'function' && typeof (value as DateTimeLike).toMillis === 'function';

function toDate(value: unknown): Date | undefined {
	if (isDateTimeLike(value)) return new Date(value.toMillis());
	if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
	const date = new Date(value as string);
	return Number.isNaN(date.getTime()) ? undefined : date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The calendar day a value names. A text that starts with YYYY-MM-DD (n8n's date picker gives
 * 2026-11-01T00:00:00) means that day, whatever the time and zone after it: converting it to UTC first would
 * move it to the day before east of Greenwich. A DateTime keeps the day of its own zone; other values are read
 * in local time.
 */
function toDay(value: unknown): string | undefined {
	if (isDateTimeLike(value)) return value.toISODate() ?? undefined;
	const date = toDate(value);
	if (!date) return undefined;
	const prefix = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/.exec(value.trim()) : null;
	if (!prefix) return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
	const [, year, month, day] = prefix.map(Number);
	const utc = new Date(Date.UTC(year, month - 1, day));
	// 2026-02-30 is not a day, even though Date would roll it over to March.
	return utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day ? prefix[0] : undefined;
}

/** The value in the form the API expects, or an error saying what is wrong and how to fix it. */
export function checkValue(this: IExecuteFunctions, kind: FieldKind, value: unknown, label: string, itemIndex: number): unknown {
	const problem = (text: string) => new NodeOperationError(this.getNode(), text, { itemIndex });
	switch (kind) {
		case 'text':
			if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
			throw problem(`${label} must be text, not ${shown(value)}`);
		case 'email': {
			const text = typeof value === 'string' ? value.trim() : '';
			if (EMAIL.test(text)) return text;
			throw problem(`${label} ${shown(value)} is not a valid e-mail address: use the form name@example.com`);
		}
		case 'phone': {
			const text = typeof value === 'string' ? value.trim() : String(value);
			if (PHONE_SHAPE.test(text) && PHONE_DIGITS.test(text)) return text;
			throw problem(`${label} ${shown(value)} is not in international format: start with + and the country code, e.g. +49 30 1234567`);
		}
		case 'date': {
			const day = toDay(value);
			if (day) return day;
			throw problem(`${label} ${shown(value)} is not a date: use the form 2026-12-31`);
		}
		case 'dateTime': {
			const date = toDate(value);
			if (date) return date.toISOString();
			throw problem(`${label} ${shown(value)} is not a date and time: use the form 2026-12-31T14:30:00Z`);
		}
		case 'number': {
			const n = toNumber(value);
			if (n !== undefined) return n;
			throw problem(`${label} must be a number, not ${shown(value)}`);
		}
		case 'recordId': {
			const n = toNumber(value);
			if (n !== undefined && Number.isSafeInteger(n) && n >= 1) return n;
			throw problem(`${label} must be the ID of a record, a whole number of 1 or more, not ${shown(value)}`);
		}
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 'false') return value === 'true';
			throw problem(`${label} must be true or false, not ${shown(value)}`);
		case 'object':
			if (isObject(value)) return value;
			throw problem(`${label} must be an object such as {"vat_number": "DE123"}, not ${shown(value)}`);
	}
}

/** Whether a value was left empty (and so is not sent). */
export function isBlank(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
