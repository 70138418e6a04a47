import { daysBetween } from './dates';
import type { Contact, Invoice, Product } from './types';

export const EVENT_NAMES = [
	'contact.created',
	'contact.updated',
	'invoice.paid',
	'invoice.overdue',
	'product.low_stock',
	'employee.hired',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export const isEventName = (value: unknown): value is EventName => EVENT_NAMES.includes(value as EventName);

/** Event `data` shapes (docs/api-assumptions.md, "Webhooks"). */

export const contactUpdatedData = (contact: Contact, changedFields: string[]) => ({
	...contact,
	changed_fields: changedFields,
});

export const invoicePaidData = (invoice: Invoice) => ({
	invoice_id: invoice.id,
	amount: invoice.total,
	currency: invoice.currency,
	number: invoice.number,
	contact_id: invoice.contact_id,
	paid_at: invoice.paid_at,
});

export const invoiceOverdueData = (invoice: Invoice, today: string) => ({
	invoice_id: invoice.id,
	number: invoice.number,
	contact_id: invoice.contact_id,
	amount_due: invoice.amount_due,
	currency: invoice.currency,
	due_date: invoice.due_date,
	days_overdue: daysBetween(invoice.due_date, today),
});

export const lowStockData = (product: Product) => ({
	product_id: product.id,
	sku: product.sku,
	name: product.name,
	stock_total: product.stock_total,
	low_stock_threshold: product.low_stock_threshold,
});
