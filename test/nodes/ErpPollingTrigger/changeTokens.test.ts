import type { WatchConfig } from '../../../nodes/ErpPollingTrigger/config';
import { changeTokens } from '../../../nodes/ErpPollingTrigger/state';

const config = (fields: string[], idField = 'id') => ({ fields, idField }) as WatchConfig;

describe('ERP Polling Trigger: change tokens', () => {
	it('every field: names the fields that changed, with their values now; an unchanged record has the same token', () => {
		const before = { id: 1, email: 'a@example.com', company: 'Nordwind', phone: null };
		const first = changeTokens(config([]), undefined, [before]);
		const token = first.of(before);
		expect(token).toHaveLength(first.fields!.length * 4);

		const next = changeTokens(config([]), first.fields, [before]);
		expect(next.of(before)).toBe(token);
		const after = { ...before, company: 'Ostwind', phone: '+49 30 1234567' };
		expect(next.changes(token, after)).toEqual({ company: { current: 'Ostwind' }, phone: { current: '+49 30 1234567' } });
	});

	it("every field of any list: the ID Field is the record's key, not one of its watched fields", () => {
		const order = { id: 7, number: 'SO-7', status: 'open' };
		expect(changeTokens(config([], 'number'), undefined, [order]).fields).toEqual(['id', 'status']);
		expect(changeTokens(config([]), undefined, [order]).fields).toEqual(['number', 'status']);
	});

	it('every field: a change deep inside a list field, such as one invoice line\'s quantity, is a change of that field', () => {
		const lines = [
			{ description: 'Chair', quantity: 2, unit_price: 120 },
			{ description: 'Desk', quantity: 1, unit_price: 450 },
		];
		const before = { id: 7, status: 'draft', lines };
		const first = changeTokens(config([]), undefined, [before]);
		const after = { ...before, lines: [lines[0], { ...lines[1], quantity: 3 }] };
		const next = changeTokens(config([]), first.fields, [after]);
		expect(next.changes(first.of(before), after)).toEqual({ lines: { current: after.lines } });
		expect(next.changes(first.of(before), structuredClone(before))).toEqual({});
	});

	it('every field: a field the ERP starts to send is no change of every record; a field a record loses is one', () => {
		const before = { id: 1, email: 'a@example.com', company: 'Nordwind' };
		const first = changeTokens(config([]), undefined, [before]);
		const token = first.of(before);

		const upgraded = { ...before, loyalty_tier: 'gold' };
		const next = changeTokens(config([]), first.fields, [upgraded]);
		expect(next.fields).toEqual(['company', 'email', 'loyalty_tier']);
		expect(next.changes(token, upgraded)).toEqual({});

		const { company, ...without } = before;
		expect(company).toBe('Nordwind');
		expect(next.changes(token, without)).toEqual({ company: { current: null } });
	});

	it('Fields to Watch: only those fields, with previous and current values; absent counts as null', () => {
		const tokens = changeTokens(config(['email', 'phone']), undefined, []);
		const token = tokens.of({ id: 1, email: 'a@example.com', company: 'x' });
		expect(JSON.parse(token)).toEqual(['a@example.com', null]);
		expect(tokens.changes(token, { id: 1, email: 'a@example.com', company: 'y' })).toEqual({});
		expect(tokens.changes(token, { id: 1, email: 'b@example.com', phone: '+1 555 0100' })).toEqual({
			email: { previous: 'a@example.com', current: 'b@example.com' },
			phone: { previous: null, current: '+1 555 0100' },
		});
	});
});
