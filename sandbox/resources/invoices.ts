import { addDays, nowIso, parseTimestamp, todayUtc } from '../dates';
import { ApiError, notFound } from '../errors';
import { invoicePaidData } from '../events';
import { invoiceTotals } from '../invoiceMath';
import { listSorts, listTable, type Filter } from '../listing';
import { invoiceNumber } from '../numbering';
import { dateParam, integerParam, stringParam } from '../query';
import type { Router } from '../router';
import { ruleSchemas } from '../rules';
import { PAYMENT_METHODS, type CustomFields, type Invoice, type InvoiceLine } from '../types';
import { FieldErrors, readFields, readList, type Schema } from '../validate';
import type { ApiContext, ApiHandler } from './context';

const schemaFor = ruleSchemas('invoice', {
	contact_id: { type: 'number', required: true, integer: true, min: 1 },
	currency: { type: 'string', format: 'currency' },
	issue_date: { type: 'string', format: 'date' },
	due_date: { type: 'string', format: 'date' },
	notes: { type: 'string', nullable: true },
	custom_fields: { type: 'custom_fields' },
});

const lineSchemaFor = ruleSchemas('invoiceLine', {
	description: { type: 'string', required: true, max: 500 },
	quantity: { type: 'number', above: 0 },
	unit_price: { type: 'number', required: true, min: 0, money: true },
	tax_rate: { type: 'number', min: 0, max: 100 },
});

const sendSchema: Schema = { email: { type: 'string', format: 'email' } };

const markPaidSchemaFor = ruleSchemas('markPaid', {
	paid_at: { type: 'string', format: 'timestamp' },
	payment_method: { type: 'string', oneOf: PAYMENT_METHODS },
	reference: { type: 'string', max: 200 },
});

const sorts = listSorts<Invoice>({ due_date: (i) => i.due_date });

function filters(query: URLSearchParams): Array<Filter<Invoice>> {
	const tests: Array<Filter<Invoice>> = [];
	const status = stringParam(query, 'status');
	if (status !== undefined) tests.push((i) => i.status === status);
	const contactId = integerParam(query, 'contact_id');
	if (contactId !== undefined) tests.push((i) => i.contact_id === contactId);
	const currency = stringParam(query, 'currency');
	if (currency !== undefined) tests.push((i) => i.currency === currency);
	const dueBefore = dateParam(query, 'due_before');
	if (dueBefore !== undefined) tests.push((i) => i.due_date <= dueBefore);
	const dueAfter = dateParam(query, 'due_after');
	if (dueAfter !== undefined) tests.push((i) => i.due_date >= dueAfter);
	const search = stringParam(query, 'search')?.toLowerCase();
	if (search) tests.push((i) => i.number.toLowerCase().includes(search));
	return tests;
}

function findInvoice(ctx: ApiContext): Invoice {
	const invoice = ctx.state.store.invoices.get(ctx.id);
	if (!invoice) throw notFound(`Invoice ${ctx.id} not found`);
	return invoice;
}

function readLines(raw: unknown, lineSchema: Schema, errors: FieldErrors): InvoiceLine[] {
	if (raw === undefined || raw === null) {
		errors.add('lines', 'is required');
		return [];
	}
	if (Array.isArray(raw) && raw.length === 0) errors.add('lines', 'must contain at least one line');
	return readList(raw, 'lines', lineSchema, errors).map((v) => ({
		description: v.description as string,
		quantity: (v.quantity as number | undefined) ?? 1,
		unit_price: v.unit_price as number,
		tax_rate: (v.tax_rate as number | undefined) ?? 0,
	}));
}

const create: ApiHandler = ({ state, body, variant }) => {
	const { store } = state;
	const errors = new FieldErrors();
	const v = readFields(body, schemaFor(variant.rules), 'create', errors);
	const lines = readLines(body.lines, lineSchemaFor(variant.rules), errors);
	const contactId = v.contact_id as number | undefined;
	if (contactId !== undefined && !store.contacts.get(contactId)) {
		errors.add('contact_id', `contact ${contactId} does not exist`);
	}
	const issueDate = (v.issue_date as string | undefined) ?? todayUtc();
	const dueDate = (v.due_date as string | undefined) ?? addDays(issueDate, 30);
	if (!errors.has('due_date') && !errors.has('issue_date') && dueDate < issueDate) {
		errors.add('due_date', 'must not be before issue_date');
	}
	errors.throwIfAny();
	const now = nowIso();
	const id = store.invoices.nextId();
	const totals = invoiceTotals(lines);
	const invoice: Invoice = {
		id,
		number: invoiceNumber(id),
		contact_id: contactId as number,
		status: (v.status as string | undefined) ?? 'draft',
		currency: (v.currency as string | undefined) ?? 'EUR',
		issue_date: issueDate,
		due_date: dueDate,
		lines,
		...totals,
		amount_due: totals.total,
		notes: (v.notes as string | undefined) ?? null,
		custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
		sent_at: null,
		paid_at: null,
		payment_method: null,
		payment_reference: null,
		created_at: now,
		updated_at: now,
	};
	store.addInvoice(invoice);
	return { status: 201, data: invoice, created: `/invoices/${invoice.id}` };
};

const send: ApiHandler = (ctx) => {
	const invoice = findInvoice(ctx);
	const errors = new FieldErrors();
	const v = readFields(ctx.body, sendSchema, 'create', errors);
	errors.throwIfAny();
	if (invoice.status === 'paid') {
		throw new ApiError(422, `Invoice ${invoice.number} is paid and cannot be sent`, { status: ['invoice is already paid'] });
	}
	const recipient = (v.email as string | undefined) ?? ctx.state.store.contacts.get(invoice.contact_id)?.email;
	if (!recipient) {
		throw new ApiError(422, 'No recipient: the contact has no e-mail address and none was given', {
			email: ['is required: the contact has no e-mail address'],
		});
	}
	const now = nowIso();
	if (invoice.status === 'draft') ctx.state.store.setInvoiceStatus(invoice, 'sent');
	invoice.sent_at = now;
	invoice.updated_at = now;
	ctx.state.store.invoices.touch();
	return { data: invoice };
};

const markPaid: ApiHandler = (ctx) => {
	const invoice = findInvoice(ctx);
	const errors = new FieldErrors();
	const v = readFields(ctx.body, markPaidSchemaFor(ctx.variant.rules), 'create', errors);
	const paidAt = v.paid_at === undefined ? undefined : (parseTimestamp(v.paid_at as string) as number);
	if (paidAt !== undefined && paidAt > Date.now()) errors.add('paid_at', 'must not be in the future');
	errors.throwIfAny();
	if (invoice.status === 'paid') {
		throw new ApiError(422, `Invoice ${invoice.number} is already paid`, { status: ['invoice is already paid'] });
	}
	const now = nowIso();
	ctx.state.store.setInvoiceStatus(invoice, 'paid');
	invoice.paid_at = paidAt === undefined ? now : new Date(paidAt).toISOString();
	invoice.payment_method = (v.payment_method as string | undefined) ?? null;
	invoice.payment_reference = (v.reference as string | undefined) ?? null;
	invoice.amount_due = 0;
	invoice.updated_at = now;
	ctx.state.webhooks.emit('invoice.paid', invoicePaidData(invoice));
	return { data: invoice };
};

export function invoiceRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/invoices', (ctx) => listTable(ctx.state.store.invoices, ctx, filters, sorts))
		.on('POST', '/invoices', create)
		.on('GET', '/invoices/:id', (ctx) => ({ data: findInvoice(ctx) }))
		.on('POST', '/invoices/:id/send', send)
		.on('POST', '/invoices/:id/mark-paid', markPaid);
}
