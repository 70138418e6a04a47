import { currencyField, recordLocator } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';

export const invoiceFields: FieldSpecs = {
	currency: currencyField,
	issueDate: {
		apiName: 'issue_date',
		kind: 'date',
		property: { displayName: 'Issue Date', name: 'issueDate', type: 'dateTime', default: '', description: 'The ERP uses today when empty' },
	},
	dueDate: {
		apiName: 'due_date',
		kind: 'date',
		property: {
			displayName: 'Due Date',
			name: 'dueDate',
			type: 'dateTime',
			default: '',
			description: 'The ERP chooses it (e.g. 30 days after the issue date) when empty',
		},
	},
	notes: {
		apiName: 'notes',
		kind: 'text',
		property: { displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '' },
	},
};

export const invoiceFilters: FieldSpecs = {
	// The ERP's own list of statuses may be longer: an expression can send any other value.
	status: {
		apiName: 'status',
		kind: 'text',
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'sent',
			options: [
				{ name: 'Draft', value: 'draft' },
				{ name: 'Overdue', value: 'overdue' },
				{ name: 'Paid', value: 'paid' },
				{ name: 'Sent', value: 'sent' },
			],
		},
	},
	contactId: {
		apiName: 'contact_id',
		kind: 'recordId',
		property: { ...recordLocator('contact', 'searchContacts', 'Only invoices of this contact'), required: false },
	},
	currency: currencyField,
	dueAfter: {
		apiName: 'due_after',
		kind: 'date',
		property: { displayName: 'Due After', name: 'dueAfter', type: 'dateTime', default: '', description: 'Due on this day or later' },
	},
	dueBefore: {
		apiName: 'due_before',
		kind: 'date',
		property: { displayName: 'Due Before', name: 'dueBefore', type: 'dateTime', default: '', description: 'Due on this day or earlier' },
	},
	search: {
		apiName: 'search',
		kind: 'text',
		property: {
			displayName: 'Invoice Number',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'INV-000042',
			description: 'Whole or part of the invoice number',
		},
	},
};

export const lineFields: FieldSpecs = {
	description: {
		apiName: 'description',
		kind: 'text',
		property: { displayName: 'Description', name: 'description', type: 'string', default: '' },
	},
	quantity: {
		apiName: 'quantity',
		kind: 'number',
		property: { displayName: 'Quantity', name: 'quantity', type: 'number', default: 1 },
	},
	unitPrice: {
		apiName: 'unit_price',
		kind: 'number',
		property: { displayName: 'Unit Price', name: 'unitPrice', type: 'number', typeOptions: { numberPrecision: 2 }, default: 0 },
	},
	taxRate: {
		apiName: 'tax_rate',
		kind: 'number',
		property: { displayName: 'Tax Rate (%)', name: 'taxRate', type: 'number', default: 0 },
	},
};
