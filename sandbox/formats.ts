import { isDate, parseTimestamp } from './dates';

/** Value shapes the contract names, each with the message a client sees when a value breaks it. */
export const FORMATS = {
	email: {
		test: (v: string) => v.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
		message: 'must be a valid e-mail address (local@domain.tld)',
	},
	phone: {
		// "+" then 7–15 digits; spaces, dashes, dots or parentheses only between digits.
		test: (v: string) => /^\+\d(?:[\s().-]*\d)*$/.test(v) && /^(?:\D*\d){7,15}\D*$/.test(v),
		message: 'must be in international format: + then 7 to 15 digits, e.g. +49 30 1234567',
	},
	currency: {
		test: (v: string) => /^[A-Z]{3}$/.test(v),
		message: 'must be a 3-letter ISO 4217 code in upper case, e.g. EUR',
	},
	/** The lenient-rules variant's currency: longer codes (USDT) and any case. */
	currencyCode: {
		test: (v: string) => /^[A-Za-z0-9]{3,12}$/.test(v),
		message: 'must be a currency code of 3 to 12 letters or digits',
	},
	/** The lenient-rules variant's phone: still a leading + (the API document says so), otherwise free. */
	phoneLoose: {
		test: (v: string) => v.length <= 40 && /^\+\d[\d\s()./-]*(?:\s*(?:ext\.?|x)\s*\d+)?$/i.test(v),
		message: 'must start with + and a digit (international format), at most 40 characters',
	},
	date: { test: isDate, message: 'must be a date in the form YYYY-MM-DD' },
	timestamp: {
		test: (v: string) => parseTimestamp(v) !== undefined,
		message: 'must be an ISO 8601 timestamp, e.g. 2026-11-22T10:15:30.000Z',
	},
	sku: {
		test: (v: string) => /^[A-Za-z0-9._-]{1,64}$/.test(v),
		message: 'must be 1 to 64 characters of A-Z, a-z, 0-9, "-", "_" or "."',
	},
	url: {
		test: (v: string) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v),
		message: 'must be an http or https URL',
	},
} as const;

export type Format = keyof typeof FORMATS;

export const hasAtMostTwoDecimals = (n: number): boolean => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** Money rounding to cents, immune to binary fractions such as 1.005. */
export const roundMoney = (n: number): number => Math.round((n + Number.EPSILON) * 100) / 100;
