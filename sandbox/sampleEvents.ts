import { addDays, nowIso, todayUtc } from './dates';
import {
	contactUpdatedData,
	invoiceOverdueData,
	invoicePaidData,
	lowStockData,
	type EventName,
} from './events';
import { isLow } from './stock';
import type { Store } from './store';
import type { Contact, Employee, Invoice, Product } from './types';

/** The newest row passing `test`, else the newest row. */
function last<T>(rows: readonly T[], test: (row: T) => boolean = () => true): T | undefined {
	for (let i = rows.length - 1; i >= 0; i--) if (test(rows[i])) return rows[i];
	return rows[rows.length - 1];
}

const SAMPLE_CONTACT: Contact = {
	id: 1,
	first_name: 'Anna',
	last_name: 'Schmidt',
	email: 'anna.schmidt@nordwind-logistics.de',
	phone: '+49 30 1234567',
	company: 'Nordwind Logistics GmbH',
	notes: null,
	custom_fields: {},
	created_at: '2026-01-15T09:30:00.000Z',
	updated_at: '2026-01-15T09:30:00.000Z',
};

const SAMPLE_INVOICE: Invoice = {
	id: 1,
	number: 'INV-000001',
	contact_id: 1,
	status: 'overdue',
	currency: 'EUR',
	issue_date: '2026-01-15',
	due_date: '2026-02-14',
	lines: [{ description: 'Consulting services (hours)', quantity: 10, unit_price: 120, tax_rate: 19 }],
	subtotal: 1200,
	tax_total: 228,
	total: 1428,
	amount_due: 1428,
	notes: null,
	custom_fields: {},
	sent_at: '2026-01-15T10:00:00.000Z',
	paid_at: null,
	payment_method: null,
	payment_reference: null,
	created_at: '2026-01-15T09:45:00.000Z',
	updated_at: '2026-01-15T10:00:00.000Z',
};

const SAMPLE_PRODUCT: Product = {
	id: 1,
	sku: 'OFF-00001',
	name: 'Ergonomic Office Chair',
	description: null,
	unit_price: 249,
	currency: 'EUR',
	unit: 'pcs',
	low_stock_threshold: 10,
	active: true,
	stock_total: 4,
	custom_fields: {},
	created_at: '2026-01-15T09:30:00.000Z',
	updated_at: '2026-01-15T09:30:00.000Z',
};

const SAMPLE_EMPLOYEE: Employee = {
	id: 1,
	employee_number: 'EMP-0001',
	first_name: 'Lukas',
	last_name: 'Weber',
	email: 'lukas.weber@northwind-industries.com',
	phone: '+49 89 12345678',
	job_title: 'Accountant',
	department: 'Finance',
	employment_type: 'full_time',
	hire_date: '2026-02-01',
	salary: 52000,
	currency: 'EUR',
	status: 'active',
	custom_fields: {},
	created_at: '2026-01-15T09:30:00.000Z',
	updated_at: '2026-01-15T09:30:00.000Z',
};

/** The data of an event emitted on demand: built from the latest fitting record, or a fixed sample. */
export function sampleEventData(event: EventName, store: Store): object {
	switch (event) {
		case 'contact.created':
			return last(store.contacts.all()) ?? SAMPLE_CONTACT;
		case 'contact.updated':
			return contactUpdatedData(last(store.contacts.all()) ?? SAMPLE_CONTACT, ['email']);
		case 'invoice.paid': {
			const invoice = last(store.invoices.all(), (i) => i.status === 'paid') ?? SAMPLE_INVOICE;
			return { ...invoicePaidData(invoice), paid_at: invoice.paid_at ?? nowIso() };
		}
		case 'invoice.overdue': {
			const invoice = last(store.invoices.all(), (i) => i.status === 'overdue') ?? SAMPLE_INVOICE;
			const today = todayUtc();
			return invoiceOverdueData(invoice, invoice.due_date < today ? today : addDays(invoice.due_date, 1));
		}
		case 'product.low_stock':
			return lowStockData(last(store.products.all(), isLow) ?? SAMPLE_PRODUCT);
		case 'employee.hired':
			return last(store.employees.all()) ?? SAMPLE_EMPLOYEE;
	}
}
