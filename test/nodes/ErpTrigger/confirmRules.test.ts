import { isLowStock } from '../../../nodes/shared/lowStock';
import { dueDateOf, isOverdue, paidState } from '../../../nodes/ErpTrigger/confirmRules';
import { readSchedule } from '../../../nodes/ErpTrigger/readBack';
import { claimOf, recordIdOf } from '../../../nodes/ErpTrigger/claimedRecord';
import { judge, judgeStock } from '../../../nodes/ErpTrigger/confirmRules';

// The pure rules of Confirm With the ERP, on records as ERPs other than the sandbox may show them: the document shows
// no invoice or product fields, only that an invoice can become paid or overdue and a product reach low stock.

const NOW = new Date('2026-11-28T10:00:00.000Z');
const invoice = claimOf('invoice.paid');
if (invoice === undefined) throw new Error('invoice.paid is one of the six events');

describe('the record’s ID in the delivery', () => {
	it.each([
		[{ invoice_id: 7 }, { id: '7', field: 'invoice_id' }],
		[{ id: 7 }, { id: '7', field: 'id' }],
		[{ invoice_id: '7' }, { id: '7', field: 'invoice_id' }],
		[{ invoice_id: ' 12 ' }, { id: '12', field: 'invoice_id' }],
		[{ invoice_id: 7, id: 99 }, { id: '7', field: 'invoice_id' }],
		[{ invoice_id: 'INV-7', id: 99 }, { id: '99', field: 'id' }],
		[{ invoice_id: 0 }, { id: '0', field: 'invoice_id' }],
	])('%j → %j', (data, found) => {
		expect(recordIdOf(invoice, data)).toEqual(found);
	});

	it.each([[{}], [{ contact_id: 3 }], [{ invoice_id: null }]])('%j: none, naming the fields looked at', (data) => {
		expect(recordIdOf(invoice, data)).toEqual({ reason: 'The delivery names no invoice: its data has no invoice_id or id, so the ERP cannot be asked about it' });
	});

	it.each([['7a'], [7.5], [-1], [true], [[7]], ['1e3'], ['9'.repeat(16)]])('%j is no integer ID', (value) => {
		expect(recordIdOf(invoice, { invoice_id: value })).toEqual({ reason: expect.stringMatching(/^The delivery's data\.invoice_id is .+, not an integer invoice ID/) });
	});

	it('knows the six events of the document and no other name', () => {
		expect(['contact.created', 'contact.updated', 'employee.hired', 'invoice.paid', 'invoice.overdue', 'product.low_stock'].map((event) => claimOf(event)?.path)).toEqual([
			'/contacts',
			'/contacts',
			'/employees',
			'/invoices',
			'/invoices',
			'/products',
		]);
		expect([claimOf('invoice.created'), claimOf('toString'), claimOf('__proto__')]).toEqual([undefined, undefined, undefined]);
	});
});

describe('whether an invoice is paid', () => {
	it.each([
		[{ status: 'paid' }, true],
		[{ status: 'PAID' }, true],
		[{ status: 'Fully Paid' }, true],
		[{ status: 'settled' }, true],
		[{ status: 'sent', paid_at: '2026-11-01' }, false],
		[{ status: 'draft' }, false],
		[{ status: 'overdue' }, false],
		[{ status: 'open' }, false],
		[{ status: 'partially-paid' }, false],
		[{ status: 'closed', paid_at: '2026-11-01T10:00:00Z' }, true],
		[{ paid_on: '2026-11-01' }, true],
		[{ status: 'booked', amount_due: 0 }, true],
		[{ balance_due: '0.00' }, true],
		[{ amount_due: 12.5 }, false],
		[{ status: 'booked', paid_at: null, amount_due: null }, undefined],
		[{}, undefined],
	])('%j → %s', (record, paid) => {
		expect(paidState(record).paid).toBe(paid);
	});
});

describe('whether an invoice is overdue', () => {
	it.each([
		[{ status: 'overdue', due_date: '2026-12-31' }, true],
		[{ status: 'Past Due' }, true],
		[{ status: 'sent', due_date: '2026-11-27' }, true],
		[{ status: 'open', due_date: '2026-11-01' }, true],
		[{ status: 'sent', due_date: '2026-11-28' }, true],
		[{ status: 'sent', due_date: '2026-11-29' }, false],
		[{ due_at: '2026-11-20T00:00:00+02:00' }, true],
		[{ due_on: '2026-12-20' }, false],
		[{ status: 'sent' }, undefined],
		[{ status: 'sent', due_date: 'soon' }, undefined],
	])('%j → %s', (record, overdue) => {
		expect(isOverdue(record, NOW)).toBe(overdue);
	});

	it('counts a due date of today (UTC) as passed: somewhere the ERP may be, today is already tomorrow', () => {
		expect(dueDateOf({ due_date: '2026-11-28' })).toEqual({ date: '2026-11-28', field: 'due_date' });
		expect(isOverdue({ due_date: '2026-11-28' }, new Date('2026-11-28T00:00:01.000Z'))).toBe(true);
	});
});

describe('the verdicts', () => {
	it('invoice.paid: confirmed when paid, contradicted when not, unconfirmable when nothing on it tells', () => {
		expect(judge('invoice.paid', { status: 'paid' }, '7', NOW)).toEqual({ status: 'confirmed' });
		expect(judge('invoice.paid', { status: 'sent' }, '7', NOW)).toEqual({ status: 'contradicted', reason: 'The ERP shows invoice 7 as not paid (status "sent")' });
		expect(judge('invoice.paid', { amount_due: 3 }, '7', NOW)).toEqual({ status: 'contradicted', reason: 'The ERP shows invoice 7 as not paid (amount_due 3)' });
		expect(judge('invoice.paid', { status: 'booked' }, '7', NOW)).toEqual({
			status: 'unconfirmable',
			reason: 'Invoice 7 in the ERP shows no payment state the node can read (status "booked", no paid_at or amount_due)',
		});
	});

	it('invoice.overdue: an ERP with other status words is judged by the due date', () => {
		expect(judge('invoice.overdue', { status: 'open', due_date: '2026-11-01' }, '7', NOW)).toEqual({ status: 'confirmed' });
		expect(judge('invoice.overdue', { status: 'open', due_date: '2026-12-01' }, '7', NOW)).toEqual({
			status: 'contradicted',
			reason: 'The ERP shows invoice 7 as not overdue (status "open", due_date 2026-12-01)',
		});
		expect(judge('invoice.overdue', { status: 'settled', due_date: '2026-11-01' }, '7', NOW)).toEqual({
			status: 'contradicted',
			reason: 'The ERP shows invoice 7 as paid (status "settled"), so it is not overdue',
		});
		expect(judge('invoice.overdue', { status: 'sent' }, '7', NOW)).toEqual({
			status: 'unconfirmable',
			reason: 'Invoice 7 in the ERP shows neither an overdue status nor a due date (status "sent", no due_date, due_on, due_at)',
		});
	});

	it('contacts and employees: the record read is the confirmation', () => {
		expect(judge('contact.created', { id: 1 }, '1', NOW)).toEqual({ status: 'confirmed' });
		expect(judge('employee.hired', {}, '1', NOW)).toEqual({ status: 'confirmed' });
	});

	it('product.low_stock: below the threshold by the polling trigger’s rule, not at it', () => {
		expect([isLowStock({ total: 9, threshold: 10 }), isLowStock({ total: 10, threshold: 10 })]).toEqual([true, false]);
		expect(judgeStock('3', { total: 9, threshold: 10 })).toEqual({ status: 'confirmed' });
		expect(judgeStock('3', { total: 10, threshold: 10 })).toEqual({
			status: 'contradicted',
			reason: 'The ERP shows product 3 with a stock of 10, not below its threshold of 10',
		});
	});
});

describe('when a contradicted record is read again', () => {
	it.each([
		[0, []],
		[400, []],
		[500, [500]],
		[1_500, [500, 1_000]],
		[3_000, [500, 1_000]],
		[8_000, [500, 1_000, 2_000, 4_000]],
		[30_000, [500, 1_000, 2_000, 4_000, 8_000]],
	])('Confirmation Wait %i ms: waits %j', (waitMs, waits) => {
		expect(readSchedule(waitMs)).toEqual(waits);
	});
});
