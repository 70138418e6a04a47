import { currencyField } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';
import { ASSIGNED_FIELDS } from '../shared/update';

export const productFields: FieldSpecs = {
	sku: {
		apiName: 'sku',
		kind: 'text',
		usuallyRequired: true,
		property: {
			displayName: 'SKU',
			name: 'sku',
			type: 'string',
			default: '',
			placeholder: 'CHAIR-OAK-01',
			description: 'Stock keeping unit, unique per product',
		},
	},
	name: {
		apiName: 'name',
		kind: 'text',
		usuallyRequired: true,
		property: { displayName: 'Name', name: 'name', type: 'string', default: '' },
	},
	description: {
		apiName: 'description',
		kind: 'text',
		property: { displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '' },
	},
	unitPrice: {
		apiName: 'unit_price',
		kind: 'number',
		property: { displayName: 'Unit Price', name: 'unitPrice', type: 'number', typeOptions: { numberPrecision: 2 }, default: 0 },
	},
	currency: currencyField,
	unit: {
		apiName: 'unit',
		kind: 'text',
		property: { displayName: 'Unit', name: 'unit', type: 'string', default: '', placeholder: 'pcs' },
	},
	lowStockThreshold: {
		apiName: 'low_stock_threshold',
		kind: 'number',
		property: {
			displayName: 'Low Stock Threshold',
			name: 'lowStockThreshold',
			type: 'number',
			default: 10,
			description: 'When the total stock falls below this, the ERP sends a low-stock event',
		},
	},
	active: {
		apiName: 'active',
		kind: 'boolean',
		property: { displayName: 'Active', name: 'active', type: 'boolean', default: true, description: 'Whether the product can be sold' },
	},
};

export const productFilters: FieldSpecs = {
	search: {
		apiName: 'search',
		kind: 'text',
		property: { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the name or SKU' },
	},
	sku: productFields.sku,
	// Three states: the empty value sends no filter at all.
	active: {
		apiName: 'active',
		kind: 'boolean',
		property: {
			displayName: 'Active',
			name: 'active',
			type: 'options',
			default: 'true',
			options: [
				{ name: 'Active and Inactive', value: '' },
				{ name: 'Active Only', value: 'true' },
				{ name: 'Inactive Only', value: 'false' },
			],
		},
	},
	lowStock: {
		apiName: 'low_stock',
		kind: 'boolean',
		property: {
			displayName: 'Low Stock',
			name: 'lowStock',
			type: 'options',
			default: 'true',
			description: "Compared with each product's own low-stock threshold",
			options: [
				{ name: 'Any Stock Level', value: '' },
				{ name: 'Low Stock Only', value: 'true' },
				{ name: 'Not Low Stock Only', value: 'false' },
			],
		},
	},
};

/** What an update never sends back: the assigned fields, and the stock total (computed from the warehouses). */
export const NOT_SENT = [...ASSIGNED_FIELDS, 'stock_total'];
