import type { IDataObject } from 'n8n-workflow';

import { isLowStock, type Stock } from '../shared/lowStock';
import { DUE_DATE_FIELDS, dueDateOf, PAID_AT_FIELDS, shownField } from '../shared/recordFields';
import { toNumber } from '../shared/values';

/*
 * What an invoice as the ERP shows it says about being paid or overdue. The document shows no invoice fields: only
 * the event names imply the states "paid" and "overdue". So the status is read when it uses a word known here, and
 * otherwise the fields ERPs commonly carry decide: a payment date, the amount still due, the due date.
 */

export type PaidState = { paid: boolean | undefined; shown: string };

const normal = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/[\s-]+/g, '_') : undefined);

const PAID_STATUSES = new Set(['paid', 'fully_paid', 'settled']);
const UNPAID_STATUSES = new Set(['draft', 'sent', 'open', 'unpaid', 'issued', 'pending', 'due', 'outstanding', 'overdue', 'past_due', 'partially_paid', 'partial']);
const OVERDUE_STATUSES = new Set(['overdue', 'past_due']);

const AMOUNT_DUE_FIELDS = ['amount_due', 'balance_due', 'balance'];

/** Whether the invoice is paid (undefined: nothing on it tells), and the field that told, as shown in reasons. */
export function paidState(invoice: IDataObject): PaidState {
	const status = normal(invoice.status);
	const shownStatus = `status ${JSON.stringify(invoice.status)}`;
	if (status !== undefined && PAID_STATUSES.has(status)) return { paid: true, shown: shownStatus };
	if (status !== undefined && UNPAID_STATUSES.has(status)) return { paid: false, shown: shownStatus };
	const paidAt = shownField(invoice, PAID_AT_FIELDS);
	if (paidAt !== undefined) return { paid: true, shown: `${paidAt} ${JSON.stringify(invoice[paidAt])}` };
	const dueField = AMOUNT_DUE_FIELDS.find((field) => toNumber(invoice[field]) !== undefined);
	if (dueField !== undefined) return { paid: toNumber(invoice[dueField]) === 0, shown: `${dueField} ${JSON.stringify(invoice[dueField])}` };
	return { paid: undefined, shown: status === undefined ? 'no status' : shownStatus };
}

/**
 * Whether the invoice is overdue: its status says so, or its due date has passed. An ERP's "today" may be a day
 * ahead of UTC's (time zones reach UTC+14), so a due date up to today's UTC date counts as passed: a real event is
 * never refused for the ERP's time zone. Undefined when the invoice shows neither an overdue status nor a due date.
 */
export function isOverdue(invoice: IDataObject, now: Date): boolean | undefined {
	const status = normal(invoice.status);
	if (status !== undefined && OVERDUE_STATUSES.has(status)) return true;
	const due = dueDateOf(invoice);
	if (due === undefined) return undefined;
	return due.date <= now.toISOString().slice(0, 10);
}

/** What the ERP's record says of the event: it holds, it does not (yet: it is read again), or the record cannot tell. */
export type Verdict = { status: 'confirmed' } | { status: 'contradicted' | 'unconfirmable'; reason: string };

const confirmed: Verdict = { status: 'confirmed' };
const contradicted = (reason: string): Verdict => ({ status: 'contradicted', reason });
const unconfirmable = (reason: string): Verdict => ({ status: 'unconfirmable', reason });

function invoicePaid(invoice: IDataObject, id: string): Verdict {
	const { paid, shown } = paidState(invoice);
	if (paid === true) return confirmed;
	if (paid === false) return contradicted(`The ERP shows invoice ${id} as not paid (${shown})`);
	return unconfirmable(`Invoice ${id} in the ERP shows no payment state the node can read (${shown}, no paid_at or amount_due)`);
}

function invoiceOverdue(invoice: IDataObject, id: string, now: Date): Verdict {
	const { paid, shown } = paidState(invoice);
	if (paid === true) return contradicted(`The ERP shows invoice ${id} as paid (${shown}), so it is not overdue`);
	const overdue = isOverdue(invoice, now);
	if (overdue === true) return confirmed;
	const due = dueDateOf(invoice);
	if (overdue === false && due !== undefined) {
		return contradicted(`The ERP shows invoice ${id} as not overdue (${shown}, ${due.field} ${due.date})`);
	}
	return unconfirmable(`Invoice ${id} in the ERP shows neither an overdue status nor a due date (${shown}, no ${DUE_DATE_FIELDS.join(', ')})`);
}

/** product.low_stock: the product's stock now, by the low-stock rule the ERP Polling Trigger uses. */
export function judgeStock(id: string, stock: Stock): Verdict {
	if (isLowStock(stock)) return confirmed;
	return contradicted(`The ERP shows product ${id} with a stock of ${stock.total}, not below its threshold of ${stock.threshold}`);
}

/** Whether the record the ERP holds now bears the event out: invoices by their payment state; contacts and employees by
 * existing (the caller has read them). */
export function judge(event: string, record: IDataObject, id: string, now: Date): Verdict {
	if (event === 'invoice.paid') return invoicePaid(record, id);
	if (event === 'invoice.overdue') return invoiceOverdue(record, id, now);
	return confirmed;
}
