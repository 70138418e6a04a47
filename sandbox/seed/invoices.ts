import { addDays } from '../dates';
import { roundMoney } from '../formats';
import { invoiceTotals } from '../invoiceMath';
import { invoiceNumber } from '../numbering';
import type { Store } from '../store';
import { PAYMENT_METHODS, type Invoice, type InvoiceLine, type InvoiceStatus } from '../types';
import { SERVICES } from './names';
import { daysAgo, officeTime, type Timeline } from './timeline';

const STATUS_CYCLE: InvoiceStatus[] = ['draft', 'sent', 'overdue', 'paid'];

function lines(t: Timeline): InvoiceLine[] {
	const { rng } = t;
	const taxRate = rng.pick([0, 7, 19, 20, 21]);
	return Array.from({ length: rng.int(1, 4) }, () => {
		const [description, minPrice, maxPrice, minQty, maxQty] = rng.pick(SERVICES);
		return {
			description,
			quantity: rng.int(minQty, maxQty),
			unit_price: roundMoney(minPrice + rng.next() * (maxPrice - minPrice)),
			tax_rate: taxRate,
		};
	});
}

/**
 * Invoices of the last year for existing contacts, in every state (the first four are one of each; later
 * ones weighted). Dates agree with the state: `sent` ones are not yet due, `overdue` ones are past due.
 */
export function seedInvoices(store: Store, t: Timeline, count: number): void {
	const { rng } = t;
	const contacts = store.contacts.all();
	const drafts: Array<Omit<Invoice, 'id' | 'number'>> = [];
	for (let i = 0; i < count; i++) {
		const status = i < 4 ? STATUS_CYCLE[i] : rng.weighted([['draft', 15], ['sent', 30], ['overdue', 15], ['paid', 40]] as const);
		const issueDate =
			status === 'draft' ? daysAgo(t, rng.int(1, 10))
			: status === 'sent' ? daysAgo(t, rng.int(1, 29))
			: status === 'overdue' ? daysAgo(t, rng.int(31, 200))
			: daysAgo(t, rng.int(1, 365));
		const dueDate = addDays(issueDate, 30);
		const createdAt = officeTime(t, issueDate);
		const itemLines = lines(t);
		const totals = invoiceTotals(itemLines);
		const sentAt = status === 'draft' ? null : new Date(Date.parse(createdAt) + rng.int(5, 300) * 60_000).toISOString();
		const paidDay = [addDays(issueDate, rng.int(1, 45)), daysAgo(t, 1)].sort()[0];
		const paidAt = status === 'paid' ? [officeTime(t, paidDay), sentAt as string].sort()[1] : null;
		drafts.push({
			contact_id: rng.pick(contacts).id,
			status,
			currency: rng.weighted([['EUR', 80], ['USD', 10], ['GBP', 5], ['CHF', 5]] as const),
			issue_date: issueDate,
			due_date: dueDate,
			lines: itemLines,
			...totals,
			amount_due: status === 'paid' ? 0 : totals.total,
			notes: rng.chance(0.2) ? 'Thank you for your business.' : null,
			custom_fields: rng.chance(0.3) ? { po_number: rng.digits('PO-2#####') } : {},
			sent_at: sentAt,
			paid_at: paidAt,
			payment_method: status === 'paid' ? rng.pick(PAYMENT_METHODS) : null,
			payment_reference: status === 'paid' ? rng.digits('TRX-########') : null,
			created_at: createdAt,
			updated_at: paidAt ?? sentAt ?? createdAt,
		});
	}
	// Ids follow creation order, as in a real system.
	drafts.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
	for (const draft of drafts) {
		const id = store.invoices.nextId();
		store.addInvoice({ id, number: invoiceNumber(id), ...draft });
	}
}
