import { createHash } from 'node:crypto';

import { eventKey } from '../../../nodes/shared/eventKey';
import { normalTime } from '../../../nodes/shared/recordFields';

// The key of one occurrence in the ERP: the same for two reads of one state, another for another occurrence.

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('eventKey: the text it hashes', () => {
	it('is the JSON of event, the ID as text and the marker: for invoice.paid the payment time in UTC', () => {
		const key = eventKey('invoice.paid', 7, { id: 7, status: 'paid', paid_at: '2026-11-22T11:15:30+01:00' });
		expect(key).toBe(sha256('["invoice.paid","7","2026-11-22T10:15:30.000Z"]'));
	});

	it('takes 42 and "42" (and " 42 ") as one ID', () => {
		const record = { created_at: '2026-11-01T08:00:00Z' };
		expect(eventKey('contact.created', 42, record)).toBe(eventKey('contact.created', '42', record));
		expect(eventKey('contact.created', ' 42 ', record)).toBe(eventKey('contact.created', 42, record));
		expect(eventKey('contact.created', 43, record)).not.toBe(eventKey('contact.created', 42, record));
	});

	it('gives two events of one record two keys', () => {
		const invoice = { id: 7, paid_at: '2026-11-22T10:15:30Z', due_date: '2026-11-01' };
		expect(eventKey('invoice.paid', 7, invoice)).not.toBe(eventKey('invoice.overdue', 7, invoice));
	});
});

describe('normalized timestamps', () => {
	it.each(['2026-11-22T10:15:30Z', '2026-11-22T10:15:30.000Z', '2026-11-22T10:15:30+00:00', '2026-11-22T11:15:30+01:00', '2026-11-22 10:15:30+0000'])(
		'%s is the instant 2026-11-22T10:15:30.000Z',
		(text) => {
			expect(normalTime(text)).toBe('2026-11-22T10:15:30.000Z');
			expect(eventKey('contact.updated', 5, { updated_at: text })).toBe(eventKey('contact.updated', 5, { updated_at: '2026-11-22T10:15:30.000Z' }));
		},
	);

	it('keeps a time without a zone, a date and a number as shown: read in n8n\'s zone they would change with the host', () => {
		expect(normalTime('2026-11-22T10:15:30')).toBe('2026-11-22T10:15:30');
		expect(normalTime('2026-11-22')).toBe('2026-11-22');
		expect(normalTime(1795000000)).toBe('1795000000');
	});
});

describe('creation events: contact.created, employee.hired, the polling trigger’s record added', () => {
	it.each(['contact.created', 'employee.hired', 'invoice.created', 'record.created'])('%s: the creation time when shown, whatever else the record says', (event) => {
		const created = { id: 3, created_at: '2026-11-01T08:00:00Z', updated_at: '2026-11-01T08:00:00Z', email: 'a@example.com' };
		const later = { ...created, updated_at: '2026-11-20T08:00:00Z', email: 'b@example.com' };
		expect(eventKey(event, 3, later)).toBe(eventKey(event, 3, created));
		expect(eventKey(event, 3, { ...created, created_at: '2026-11-02T08:00:00Z' })).not.toBe(eventKey(event, 3, created));
	});

	it('another creation field an ERP commonly has (created_on, date_created)', () => {
		expect(eventKey('contact.created', 3, { created_on: '2026-11-01' })).not.toBe(eventKey('contact.created', 3, { created_on: '2026-11-02' }));
		expect(eventKey('employee.hired', 3, { date_created: '2026-11-01T08:00:00Z' })).toBe(eventKey('employee.hired', 3, { created_at: '2026-11-01T08:00:00.000Z' }));
	});

	it('no creation time shown: the ID alone (a record is created once)', () => {
		expect(eventKey('contact.created', 3, { email: 'a@example.com' })).toBe(eventKey('contact.created', 3, { email: 'b@example.com', created_at: null }));
	});
});

describe('updates: contact.updated and any *.updated', () => {
	it('the update time when shown: two real updates give two keys, one update read twice one', () => {
		const first = { id: 5, email: 'a@example.com', updated_at: '2026-11-20T09:00:00Z' };
		expect(eventKey('contact.updated', 5, { ...first })).toBe(eventKey('contact.updated', 5, first));
		expect(eventKey('contact.updated', 5, { ...first, updated_at: '2026-11-20T09:05:00Z' })).not.toBe(eventKey('contact.updated', 5, first));
		// The same update, whatever fields the read shows beside the time (a list may show fewer than a record read).
		expect(eventKey('product.updated', 5, { updated_at: '2026-11-20T09:00:00Z' })).toBe(eventKey('product.updated', 5, first));
		expect(eventKey('invoice.updated', 5, { id: 5, modified_at: '2026-11-20T09:00:00Z' })).toBe(eventKey('invoice.updated', 5, { updated_at: '2026-11-20T09:00:00Z' }));
	});

	it('no update time: the digest of the fields, in any key order; a changed field is another update', () => {
		const state = { id: 5, email: 'a@example.com', tags: ['vip'], address: { city: 'Oslo', zip: '0150' } };
		const sameState = { address: { zip: '0150', city: 'Oslo' }, tags: ['vip'], email: 'a@example.com', id: 5 };
		expect(eventKey('contact.updated', 5, sameState)).toBe(eventKey('contact.updated', 5, state));
		expect(eventKey('contact.updated', 5, { ...state, email: 'b@example.com' })).not.toBe(eventKey('contact.updated', 5, state));
		// A change back gives the first state's key again: without an update time the states cannot be told apart.
		expect(eventKey('contact.updated', 5, { ...state, email: 'a@example.com' })).toBe(eventKey('contact.updated', 5, state));
	});
});

describe('invoice.paid', () => {
	it('the payment date (paid_at, paid_on or payment_date): a second payment after a reopening is another key', () => {
		const paid = { id: 7, status: 'paid', paid_at: '2026-11-22T10:15:30Z', updated_at: '2026-11-22T10:15:31Z' };
		expect(eventKey('invoice.paid', '7', { ...paid, updated_at: '2026-11-25T00:00:00Z', notes: 'edited after' })).toBe(eventKey('invoice.paid', 7, paid));
		expect(eventKey('invoice.paid', 7, { ...paid, paid_at: '2026-12-02T08:00:00Z' })).not.toBe(eventKey('invoice.paid', 7, paid));
		expect(eventKey('invoice.paid', 7, { paid_on: '2026-11-22' })).not.toBe(eventKey('invoice.paid', 7, { paid_on: '2026-11-23' }));
		expect(eventKey('invoice.paid', 7, { payment_date: '2026-11-22T10:15:30.000Z' })).toBe(eventKey('invoice.paid', 7, paid));
	});

	it('no payment date: the ID alone, so a second payment after a reopening has the first one’s key', () => {
		const once = eventKey('invoice.paid', 7, { id: 7, status: 'paid', amount_due: 0, updated_at: '2026-11-22T10:15:31Z' });
		expect(eventKey('invoice.paid', 7, { id: 7, status: 'paid', amount_due: 0, updated_at: '2026-12-02T08:00:00Z' })).toBe(once);
		expect(eventKey('invoice.paid', 8, { id: 8, status: 'paid' })).not.toBe(once);
	});
});

describe('invoice.overdue', () => {
	it('the due date (a timestamp’s date part): the same overdue invoice read on later days has one key', () => {
		const overdue = { id: 9, status: 'overdue', due_date: '2026-11-01', updated_at: '2026-11-02T00:00:00Z' };
		expect(eventKey('invoice.overdue', 9, { ...overdue, updated_at: '2026-11-10T00:00:00Z' })).toBe(eventKey('invoice.overdue', 9, overdue));
		expect(eventKey('invoice.overdue', 9, { due_at: '2026-11-01T23:59:00Z' })).toBe(eventKey('invoice.overdue', 9, overdue));
		expect(eventKey('invoice.overdue', 9, { ...overdue, due_date: '2026-12-01' })).not.toBe(eventKey('invoice.overdue', 9, overdue));
	});
});

describe('product.low_stock', () => {
	it('stock records with an update time: the newest one, so a drop again after a restock is another key', () => {
		const low = { total: 4, threshold: 10, updatedAt: '2026-11-20T09:00:00Z' };
		expect(eventKey('product.low_stock', 12, { id: 12, name: 'Chair' }, { ...low, updatedAt: '2026-11-20T09:00:00.000Z' })).toBe(eventKey('product.low_stock', 12, {}, low));
		expect(eventKey('product.low_stock', 12, {}, { ...low, updatedAt: '2026-11-22T09:00:00Z' })).not.toBe(eventKey('product.low_stock', 12, {}, low));
	});

	it('stock records without one: the total and threshold as read, so a further drop is another key but a drop again to the same total is not', () => {
		const low = { total: 4, threshold: 10 };
		expect(eventKey('product.low_stock', 12, { id: 12, updated_at: '2026-11-22T00:00:00Z' }, low)).toBe(eventKey('product.low_stock', 12, {}, low));
		expect(eventKey('product.low_stock', 12, {}, { total: 2, threshold: 10 })).not.toBe(eventKey('product.low_stock', 12, {}, low));
		expect(eventKey('product.low_stock', 12, {}, { total: 4, threshold: 8 })).not.toBe(eventKey('product.low_stock', 12, {}, low));
		expect(eventKey('product.low_stock', 13, {}, low)).not.toBe(eventKey('product.low_stock', 12, {}, low));
	});
});

describe('any other event name (an ERP’s new event, a polling field-value watch)', () => {
	it.each(['order.shipped', 'contact.status.active'])('%s: the update time when shown, else the record digest', (event) => {
		const state = { id: 4, status: 'shipped', updated_at: '2026-11-20T09:00:00Z' };
		expect(eventKey(event, 4, { ...state, notes: 'read again' })).toBe(eventKey(event, 4, state));
		expect(eventKey(event, 4, { ...state, updated_at: '2026-11-21T09:00:00Z' })).not.toBe(eventKey(event, 4, state));
		const untimed = { id: 4, status: 'shipped' };
		expect(eventKey(event, 4, { ...untimed })).toBe(eventKey(event, 4, untimed));
		expect(eventKey(event, 4, { ...untimed, notes: 'changed' })).not.toBe(eventKey(event, 4, untimed));
	});
});
