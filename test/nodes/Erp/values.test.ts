import type { IExecuteFunctions } from 'n8n-workflow';

import { checkValue } from '../../../nodes/shared/values';
import { node } from './fakes';

const ctx = { getNode: () => node } as unknown as IExecuteFunctions;
const valid = (kind: Parameters<typeof checkValue>[0], value: unknown) => checkValue.call(ctx, kind, value, 'Field', 0);

describe('checkValue', () => {
	describe('dates', () => {
		it.each([
			['2026-11-01', '2026-11-01'],
			['2026-11-01T00:00:00', '2026-11-01'],
			['2026-11-01T23:59:59.999Z', '2026-11-01'],
			['2026-11-01T00:30:00+14:00', '2026-11-01'],
			['2026-11-01 08:00', '2026-11-01'],
		])('reads %s as the day %s', (input, day) => {
			expect(valid('date', input)).toBe(day);
		});

		it('reads a DateTime from n8n\'s field mapper as the day of its own zone', () => {
			const inTokyo = { toISODate: () => '2026-11-02', toMillis: () => Date.UTC(2026, 10, 1, 16) };
			expect(valid('date', inTokyo)).toBe('2026-11-02');
			expect(valid('dateTime', inTokyo)).toBe('2026-11-01T16:00:00.000Z');
		});

		// East of UTC a local midnight is the day before in UTC, west of it a local 23:59 the day after: npm test runs
		// east (jest.config.js), npm run test:clocks in both directions.
		it('reads a Date value as the local day it falls on, at both ends of that day', () => {
			expect(valid('date', new Date(2026, 10, 1, 0, 0))).toBe('2026-11-01');
			expect(valid('date', new Date(2026, 10, 1, 23, 59, 59))).toBe('2026-11-01');
			expect(valid('date', '2026-11-01T00:00:00')).toBe('2026-11-01');
			expect(valid('date', '2026-11-01T23:59:59')).toBe('2026-11-01');
		});

		it.each(['2026-02-30', '2026-13-01', 'soon', ''])('refuses %j, saying the form to use', (input) => {
			expect(() => valid('date', input)).toThrow(`Field "${input}" is not a date: use the form 2026-12-31`);
		});
	});

	it('takes a record ID of 1 or more and refuses 0, fractions and text, naming the field', () => {
		expect(valid('recordId', 42)).toBe(42);
		expect(valid('recordId', '7')).toBe(7);
		for (const bad of [0, -3, 2.5, 'abc', 1e20]) {
			expect(() => valid('recordId', bad)).toThrow(/^Field must be the ID of a record, a whole number of 1 or more, not /);
		}
	});

	it.each(['+49 30 1234567', '+1 (212) 555-0100', '+49 (30) 1234567', '+44.20.7946.0958', '+3312345678901'])('accepts the phone number %s', (phone) => {
		expect(valid('phone', phone)).toBe(phone);
	});

	it.each(['030 1234567', '+49', '+12 34', '+1234567890123456', '+49 30 1234567 ext', '+(49) 30 1234567', '++49 30 1234567'])(
		'refuses the phone number %s with the fix',
		(phone) => {
			expect(() => valid('phone', phone)).toThrow(/is not in international format: start with \+ and the country code, e\.g\. \+49 30 1234567/);
		},
	);

	it('leaves lengths, character sets, ranges and currency codes to the ERP', () => {
		const long = 'x'.repeat(5000);
		expect(valid('text', long)).toBe(long);
		expect(valid('text', ' chair/oak 01 ')).toBe('chair/oak 01');
		expect(valid('text', 'usd')).toBe('usd');
		expect(valid('number', -3)).toBe(-3);
		expect(valid('number', '0.125')).toBe(0.125);
		expect(() => valid('number', 'cheap')).toThrow('Field must be a number, not "cheap"');
	});

	it('takes an object for custom fields and refuses anything else, naming the field', () => {
		expect(valid('object', { tier: 'gold' })).toEqual({ tier: 'gold' });
		for (const bad of ['{"tier": "gold"}', ['gold'], null, 3]) {
			expect(() => valid('object', bad)).toThrow(/^Field must be an object such as \{"vat_number": "DE123"\}, not /);
		}
	});
});
