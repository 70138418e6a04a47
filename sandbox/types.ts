/** Record shapes as the API returns them (docs/api-assumptions.md, "Resources"). */

export type JsonObject = Record<string, unknown>;

export type CustomFields = Record<string, string | number | boolean | null>;

export interface Contact {
	id: number;
	first_name: string;
	last_name: string | null;
	email: string | null;
	phone: string | null;
	company: string | null;
	notes: string | null;
	custom_fields: CustomFields;
	created_at: string;
	updated_at: string;
}

export const INVOICE_STATUSES = ['draft', 'sent', 'overdue', 'paid'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'other'] as const;

export interface InvoiceLine {
	description: string;
	quantity: number;
	unit_price: number;
	tax_rate: number;
}

export interface Invoice {
	id: number;
	number: string;
	contact_id: number;
	/** One of INVOICE_STATUSES, or another state a lenient-rules create stored as given. */
	status: string;
	currency: string;
	issue_date: string;
	due_date: string;
	lines: InvoiceLine[];
	subtotal: number;
	tax_total: number;
	total: number;
	amount_due: number;
	notes: string | null;
	custom_fields: CustomFields;
	sent_at: string | null;
	paid_at: string | null;
	payment_method: string | null;
	payment_reference: string | null;
	created_at: string;
	updated_at: string;
}

export interface Product {
	id: number;
	sku: string;
	name: string;
	description: string | null;
	unit_price: number;
	currency: string;
	unit: string;
	low_stock_threshold: number;
	active: boolean;
	stock_total: number;
	custom_fields: CustomFields;
	created_at: string;
	updated_at: string;
}

export interface StockRow {
	warehouse_id: number;
	warehouse_code: string;
	warehouse_name: string;
	quantity: number;
	reserved: number;
	available: number;
	updated_at: string;
}

export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contractor'] as const;

export interface Employee {
	id: number;
	employee_number: string;
	first_name: string;
	last_name: string;
	email: string;
	phone: string | null;
	job_title: string | null;
	department: string | null;
	employment_type: string;
	hire_date: string;
	salary: number | null;
	currency: string;
	status: string;
	custom_fields: CustomFields;
	created_at: string;
	updated_at: string;
}

export interface PayrollRecord {
	id: number;
	employee_id: number;
	period: string;
	period_start: string;
	period_end: string;
	pay_date: string;
	gross: number;
	deductions: number;
	net: number;
	currency: string;
}
