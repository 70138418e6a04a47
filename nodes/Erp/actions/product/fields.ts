import type { FieldSpecs } from '../common/fields';
import { currencyField } from '../common/sharedFields';

export const productFields: FieldSpecs = {
	sku: {
		apiName: 'sku',
		kind: 'sku',
		property: {
			displayName: 'SKU',
			name: 'sku',
			type: 'string',
			default: '',
			placeholder: 'CHAIR-OAK-01',
			description: 'Stock keeping unit: unique; letters, digits, dashes, underscores and dots',
		},
	},
	name: {
		apiName: 'name',
		kind: 'text',
		property: { displayName: 'Name', name: 'name', type: 'string', default: '' },
	},
	description: {
		apiName: 'description',
		kind: 'text',
		property: { displayName: 'Description', name: 'description', type: 'string', typeOptions: { rows: 3 }, default: '' },
	},
	unitPrice: {
		apiName: 'unit_price',
		kind: 'nonNegativeNumber',
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
		kind: 'nonNegativeInteger',
		property: {
			displayName: 'Low Stock Threshold',
			name: 'lowStockThreshold',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 10,
			description: 'When the total stock falls below this, the ERP sends a low-stock event',
		},
	},
	active: {
		apiName: 'active',
		kind: 'boolean',
		property: {
			displayName: 'Active',
			name: 'active',
			type: 'boolean',
			default: true,
			description: 'Whether the product can be sold',
		},
	},
};

export const productFilters: FieldSpecs = {
	search: {
		apiName: 'search',
		kind: 'text',
		property: { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the name or SKU' },
	},
	sku: productFields.sku,
	active: {
		apiName: 'active',
		kind: 'boolean',
		property: { displayName: 'Active', name: 'active', type: 'boolean', default: true, description: 'Whether to return only active (or only inactive) products' },
	},
	lowStock: {
		apiName: 'low_stock',
		kind: 'boolean',
		property: {
			displayName: 'Low Stock Only',
			name: 'lowStock',
			type: 'boolean',
			default: true,
			description: 'Whether to return only products whose total stock is below their threshold',
		},
	},
};
