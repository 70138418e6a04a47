import type { IDataObject } from 'n8n-workflow';

import type { WatchConfig } from '../../../nodes/ErpPollingTrigger/config';
import { changeTokens } from '../../../nodes/ErpPollingTrigger/state';
import { findStockField } from '../../../nodes/ErpPollingTrigger/stockField';

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

const products = (rows: IDataObject[]) => new Map(rows.map((row) => [String(row.id), row]));
const read = (totals: Record<string, number>) => new Map(Object.entries(totals));

describe('ERP Polling Trigger: finding the product field that holds the stock', () => {
	it('picks the numeric field equal to every summed stock read, preferring a name that speaks of stock', () => {
		const listed = products([
			{ id: 1, on_hand: 5, score: 5, price: 9 },
			{ id: 2, on_hand: 12, score: 12, price: 9 },
			{ id: 3, on_hand: '0', score: 0, price: 9 },
			{ id: 4, on_hand: 7, score: 1, price: 9 },
		]);
		expect(findStockField(listed, read({ 1: 5, 2: 12, 3: 0 }))).toEqual({ field: 'on_hand', totals: read({ 1: 5, 2: 12, 3: 0, 4: 7 }) });
	});

	it('trusts no field when the sums read are all equal (a field of zeros proves nothing) or fewer than three', () => {
		const listed = products([
			{ id: 1, stock: 0 },
			{ id: 2, stock: 0 },
			{ id: 3, stock: 0 },
		]);
		expect(findStockField(listed, read({ 1: 0, 2: 0, 3: 0 }))).toBeUndefined();
		expect(findStockField(products([{ id: 1, stock: 1 }, { id: 2, stock: 2 }]), read({ 1: 1, 2: 2 }))).toBeUndefined();
	});

	it('trusts no field that one sampled product disagrees with, or that a listed product lacks', () => {
		const listed = products([
			{ id: 1, stock: 1 },
			{ id: 2, stock: 2 },
			{ id: 3, stock: 3 },
			{ id: 4, stock: null },
		]);
		expect(findStockField(listed, read({ 1: 1, 2: 2, 3: 4 }))).toBeUndefined();
		expect(findStockField(listed, read({ 1: 1, 2: 2, 3: 3 }))).toBeUndefined();
	});
});
