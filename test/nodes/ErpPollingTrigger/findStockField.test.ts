import type { IDataObject } from 'n8n-workflow';

import { findStockField } from '../../../nodes/ErpPollingTrigger/stockField';

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
