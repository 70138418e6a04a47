import type { IExecuteFunctions } from 'n8n-workflow';

import { SIMPLIFIED_MAX_FIELDS, selected, simplified } from '../../../nodes/Erp/actions/shared/output';
import { pathProblem, staysBelow } from '../../../nodes/shared/apiPath';
import { shownUrl } from '../../../nodes/shared/transport/errors';
import { checkValue } from '../../../nodes/shared/values';
import { node } from './fakes';

// Custom API Call's Path: appended to the credential's Base URL as it is, so it must stay below it, however a server
// or proxy on the way reads it (decoding once or twice, backslashes as slashes, `;` parameters).

const BASE = 'https://erp.example.com/api/v1';

describe('pathProblem', () => {
	it.each(['/orders', '/orders/42', '/orders/42/lines', '/', '/orders/SO%2F1001', '/orders/a.b', '/orders/...', '/files/report..pdf', '/orders/%E2%82%AC'])(
		'takes %s',
		(path) => {
			expect(pathProblem(path)).toBeUndefined();
			expect(staysBelow(BASE, path)).toBe(true);
		},
	);

	it.each([
		['', 'is empty'],
		['https://erp.example.com/api/v1/orders', 'is a full URL'],
		['HTTP://evil.example', 'is a full URL'],
		['javascript:alert(1)', 'is a full URL'],
		['orders/42', 'must start with /'],
		['@evil.example/x', 'must start with /'],
		['//evil.example/x', 'starts with //'],
		['/orders/..', 'contains a . or .. segment'],
		['/orders/./42', 'contains a . or .. segment'],
		['/orders/%2e%2E/x', 'contains a . or .. segment'],
		['/orders/.%2e/x', 'contains a . or .. segment'],
		['/orders/%252e%252e/x', 'contains a . or .. segment'],
		['/orders%2F..%2Fx', 'contains a . or .. segment'],
		['/orders/..;jsessionid=1/x', 'contains a . or .. segment'],
		['/orders\\..\\x', 'contains a backslash'],
		['/orders/%5C..%5Cx', 'contains a backslash'],
		['/orders?status=open', 'contains ?'],
		['/orders#top', 'contains #'],
		['/orders/%0d%0aHost: evil', 'contains a control character'],
		['/orders/50%off', 'has a % that is not followed by two hexadecimal digits'],
		['/orders/%2e%2', 'has a % that is not followed by two hexadecimal digits'],
	])('refuses %j: %s', (path, problem) => {
		expect(pathProblem(path)?.problem).toContain(problem);
		expect(pathProblem(path)?.fix).toMatch(/\.$/);
	});

	it('says how to write a path without its slash', () => {
		expect(pathProblem('orders/42')?.fix).toBe('Write it as /orders/42 (e.g. /orders or /orders/42).');
	});
});

describe('staysBelow: the final check of the URL the request would go to', () => {
	it.each([
		[BASE, '/%2e%2e/contacts', false],
		[BASE, '/../x', false],
		['https://erp.example.com', '@evil.example/x', false],
		[BASE, 'x', false],
		['https://erp.example.com', '/orders', true],
		['http://127.0.0.1:4010/api/v1', '/orders/42', true],
	])('%s + %s stays below it: %s', (base, path, stays) => {
		expect(staysBelow(base, path)).toBe(stays);
	});
});

describe('Simplified and Selected Fields output', () => {
	it("keeps an ERP's records useful when they name fields otherwise: the known ones first, then its own plain fields, nested ones flattened", () => {
		const record = { uuid: 'c-1', id: 7, display_name: 'Ada Lovelace', email: 'ada@example.com', address: { city: 'London', country: 'GB', lines: ['12 St James Sq'] }, tags: ['vip'], a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 };
		const shown = simplified('contact', record);
		expect(Object.entries(shown)).toEqual(
			Object.entries({ id: 7, email: 'ada@example.com', uuid: 'c-1', display_name: 'Ada Lovelace', 'address.city': 'London', 'address.country': 'GB', a: 1, b: 2, c: 3, d: 4 }),
		);
		expect(Object.keys(shown)).toHaveLength(SIMPLIFIED_MAX_FIELDS);
	});

	it('Selected Fields: the ID always, nested names by their dotted path, names the record lacks left out', () => {
		const record = { id: 3, email: 'a@b.co', custom_fields: { vat_number: 'DE1' }, company: null };
		expect(selected(record, ['custom_fields.vat_number', 'company', 'missing'])).toEqual({ id: 3, 'custom_fields.vat_number': 'DE1', company: null });
	});
});

describe('URLs in error texts', () => {
	it('lose a user, a password and a query, keep host and path', () => {
		expect(shownUrl('Nothing answers at https://bob:pw@erp.example.com:8443/api/v1?token=abc&x=1/contacts (404). Why? Ask')).toBe(
			'Nothing answers at https://erp.example.com:8443/api/v1 (404). Why? Ask',
		);
		expect(shownUrl('The Base URL "http://u@h/x?key=1" is wrong')).toBe('The Base URL "http://h/x" is wrong');
		expect(shownUrl('plain text, an e-mail bob@example.com and a question?')).toBe('plain text, an e-mail bob@example.com and a question?');
	});
});

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
		it.each([new Date(2026, 10, 1, 0, 0), new Date(2026, 10, 1, 23, 59, 59), '2026-11-01T00:00:00', '2026-11-01T23:59:59'])('reads %p as the local day it falls on, at both ends of that day', (value) => {
			expect(valid('date', value)).toBe('2026-11-01');
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
