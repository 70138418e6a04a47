import type { IDataObject } from 'n8n-workflow';

import { isLowStock, type Stock } from '../../shared/lowStock';
import { DUE_DATE_FIELDS, dueDateOf, isOverdue, paidState } from './invoiceState';

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
