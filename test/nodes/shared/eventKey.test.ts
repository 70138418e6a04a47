import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { eventKey } from '../../../nodes/shared/eventKey';
import { normalTime } from '../../../nodes/shared/recordFields';

// The key of one occurrence in the ERP: the same for two reads of one state, another for another occurrence.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
type Read = [event: string, id: string | number, record: IDataObject, stock?: { total: number; threshold: number; updatedAt?: string }];
const keyOf = ([event, id, record, stock]: Read) => eventKey(event, id, record, stock);

it('is the SHA-256 of the JSON of event, the ID as text and the marker: for invoice.paid the payment time in UTC', () => {
	expect(eventKey('invoice.paid', 7, { id: 7, status: 'paid', paid_at: '2026-11-22T11:15:30+01:00' })).toBe(sha256('["invoice.paid","7","2026-11-22T10:15:30.000Z"]'));
});

const created = { id: 3, created_at: '2026-11-01T08:00:00Z', updated_at: '2026-11-01T08:00:00Z', email: 'a@example.com' };
const updated = { id: 5, email: 'a@example.com', updated_at: '2026-11-20T09:00:00Z' };
const untimed = { id: 5, email: 'a@example.com', tags: ['vip'], address: { city: 'Oslo', zip: '0150' } };
const paid = { id: 7, status: 'paid', paid_at: '2026-11-22T10:15:30Z', updated_at: '2026-11-22T10:15:31Z' };
const overdue = { id: 9, status: 'overdue', due_date: '2026-11-01', updated_at: '2026-11-02T00:00:00Z' };
const low = { total: 4, threshold: 10 };

it.each<[string, Read, Read]>([
	['one ID written 42, "42" or " 42 "', ['contact.created', 42, created], ['contact.created', ' 42 ', created]],
	...['contact.created', 'employee.hired', 'invoice.created', 'record.created'].map((event): [string, Read, Read] => [`${event}: the creation time, whatever else changed`, [event, 3, created], [event, 3, { ...created, updated_at: '2026-11-20T08:00:00Z', email: 'b@example.com' }]]),
	['a creation time in date_created', ['employee.hired', 3, { date_created: '2026-11-01T08:00:00Z' }], ['employee.hired', 3, { created_at: '2026-11-01T08:00:00.000Z' }]],
	['no creation time shown: the ID alone', ['contact.created', 3, { email: 'a@example.com' }], ['contact.created', 3, { email: 'b@example.com', created_at: null }]],
	['an update read twice', ['contact.updated', 5, updated], ['contact.updated', 5, { ...updated }]],
	['an update, whatever fields the read shows beside its time', ['product.updated', 5, updated], ['product.updated', 5, { updated_at: '2026-11-20T09:00:00Z' }]],
	['an update time in modified_at', ['invoice.updated', 5, { id: 5, modified_at: '2026-11-20T09:00:00Z' }], ['invoice.updated', 5, { updated_at: '2026-11-20T09:00:00Z' }]],
	['no update time: the fields in any key order', ['contact.updated', 5, untimed], ['contact.updated', 5, { address: { zip: '0150', city: 'Oslo' }, tags: ['vip'], email: 'a@example.com', id: 5 }]],
	['invoice.paid edited after the payment', ['invoice.paid', 7, paid], ['invoice.paid', '7', { ...paid, updated_at: '2026-11-25T00:00:00Z', notes: 'edited after' }]],
	['invoice.paid by payment_date', ['invoice.paid', 7, paid], ['invoice.paid', 7, { payment_date: '2026-11-22T10:15:30.000Z' }]],
	['invoice.paid without a payment date: the ID alone, a second payment included', ['invoice.paid', 7, { id: 7, status: 'paid', updated_at: '2026-11-22T10:15:31Z' }], ['invoice.paid', 7, { id: 7, status: 'paid', updated_at: '2026-12-02T08:00:00Z' }]],
	['invoice.overdue read on a later day', ['invoice.overdue', 9, overdue], ['invoice.overdue', 9, { ...overdue, updated_at: '2026-11-10T00:00:00Z' }]],
	["invoice.overdue by a due timestamp's date", ['invoice.overdue', 9, overdue], ['invoice.overdue', 9, { due_at: '2026-11-01T23:59:00Z' }]],
	['product.low_stock: the newest stock update time', ['product.low_stock', 12, { id: 12, name: 'Chair' }, { ...low, updatedAt: '2026-11-20T09:00:00.000Z' }], ['product.low_stock', 12, {}, { ...low, updatedAt: '2026-11-20T09:00:00Z' }]],
	['product.low_stock without one: the total and threshold, not the product', ['product.low_stock', 12, { id: 12, updated_at: '2026-11-22T00:00:00Z' }, low], ['product.low_stock', 12, {}, low]],
	['another event (a field-value watch) by its update time', ['contact.status.active', 4, { id: 4, updated_at: '2026-11-20T09:00:00Z' }], ['contact.status.active', 4, { id: 4, updated_at: '2026-11-20T09:00:00Z', notes: 'read again' }]],
])('one occurrence: %s', (_, a, b) => {
	expect(keyOf(b)).toBe(keyOf(a));
});

it.each<[string, Read, Read]>([
	['another ID', ['contact.created', 43, created], ['contact.created', 42, created]],
	['another event of one record', ['invoice.paid', 7, paid], ['invoice.overdue', 7, paid]],
	['another creation time', ['contact.created', 3, created], ['contact.created', 3, { ...created, created_at: '2026-11-02T08:00:00Z' }]],
	['another creation day in created_on', ['contact.created', 3, { created_on: '2026-11-01' }], ['contact.created', 3, { created_on: '2026-11-02' }]],
	['a second update', ['contact.updated', 5, updated], ['contact.updated', 5, { ...updated, updated_at: '2026-11-20T09:05:00Z' }]],
	['no update time: a changed field', ['contact.updated', 5, untimed], ['contact.updated', 5, { ...untimed, email: 'b@example.com' }]],
	['a second payment after a reopening', ['invoice.paid', 7, paid], ['invoice.paid', 7, { ...paid, paid_at: '2026-12-02T08:00:00Z' }]],
	['another payment day in paid_on', ['invoice.paid', 7, { paid_on: '2026-11-22' }], ['invoice.paid', 7, { paid_on: '2026-11-23' }]],
	['another due date', ['invoice.overdue', 9, overdue], ['invoice.overdue', 9, { ...overdue, due_date: '2026-12-01' }]],
	['a drop again after a restock', ['product.low_stock', 12, {}, { ...low, updatedAt: '2026-11-20T09:00:00Z' }], ['product.low_stock', 12, {}, { ...low, updatedAt: '2026-11-22T09:00:00Z' }]],
	['a further drop', ['product.low_stock', 12, {}, low], ['product.low_stock', 12, {}, { total: 2, threshold: 10 }]],
	['another threshold', ['product.low_stock', 12, {}, low], ['product.low_stock', 12, {}, { total: 4, threshold: 8 }]],
	['another product', ['product.low_stock', 12, {}, low], ['product.low_stock', 13, {}, low]],
	['another event, later', ['order.shipped', 4, { id: 4, updated_at: '2026-11-20T09:00:00Z' }], ['order.shipped', 4, { id: 4, updated_at: '2026-11-21T09:00:00Z' }]],
	['another event without a time: a changed field', ['order.shipped', 4, { id: 4, status: 'shipped' }], ['order.shipped', 4, { id: 4, status: 'shipped', notes: 'changed' }]],
])('two occurrences: %s', (_, a, b) => {
	expect(keyOf(b)).not.toBe(keyOf(a));
});

it('without an update time, a change back gives the first state\'s key again (the states cannot be told apart)', () => {
	expect(eventKey('contact.updated', 5, { ...untimed, email: 'a@example.com' })).toBe(eventKey('contact.updated', 5, untimed));
});

it.each(['2026-11-22T10:15:30Z', '2026-11-22T10:15:30.000Z', '2026-11-22T10:15:30+00:00', '2026-11-22T11:15:30+01:00', '2026-11-22 10:15:30+0000'])('%s is the instant 2026-11-22T10:15:30.000Z, in a key too', (text) => {
	expect(normalTime(text)).toBe('2026-11-22T10:15:30.000Z');
	expect(eventKey('contact.updated', 5, { updated_at: text })).toBe(eventKey('contact.updated', 5, { updated_at: '2026-11-22T10:15:30.000Z' }));
});

it("keeps a time without a zone, a date and a number as shown: read in n8n's zone they would change with the host", () => {
	expect([normalTime('2026-11-22T10:15:30'), normalTime('2026-11-22'), normalTime(1795000000)]).toEqual(['2026-11-22T10:15:30', '2026-11-22', '1795000000']);
});
