import type { FieldSpec, Schema } from './validate';
import type { RuleSet } from './variants';

/**
 * The lenient-rules and tight-rules variants: other ERPs' answers to what the API document leaves open
 * (lengths, SKU characters, enum values, currency codes, decimals). Each replaces a field's whole spec;
 * what the document states (e-mail shape, a leading + on phones, required fields) stays.
 */

type Overrides = Record<string, FieldSpec>;

const text = (max: number, required = false): FieldSpec => ({ type: 'string', max, ...(required ? { required } : { nullable: true }) });

const LENIENT = {
	contact: {
		first_name: text(1000, true),
		last_name: text(1000),
		company: text(1000),
		phone: { type: 'string', nullable: true, format: 'phoneLoose' },
	},
	product: {
		sku: { type: 'string', required: true, max: 255 },
		name: text(1000, true),
		unit_price: { type: 'number', min: 0 },
		currency: { type: 'string', format: 'currencyCode' },
		unit: { type: 'string', max: 100 },
	},
	invoice: {
		currency: { type: 'string', format: 'currencyCode' },
		// An ERP with more states than ours lets a create choose one (e.g. "pending"); stored as given.
		status: { type: 'string', max: 50 },
	},
	invoiceLine: {
		description: text(5000, true),
		unit_price: { type: 'number', required: true, min: 0 },
	},
	markPaid: {
		payment_method: { type: 'string', max: 50 },
		reference: { type: 'string', max: 1000 },
	},
	employee: {
		first_name: text(1000, true),
		last_name: text(1000, true),
		phone: { type: 'string', nullable: true, format: 'phoneLoose' },
		job_title: text(1000),
		department: text(1000),
		employment_type: { type: 'string', max: 50 },
		salary: { type: 'number', nullable: true, min: 0 },
		currency: { type: 'string', format: 'currencyCode' },
	},
	order: {
		reference: { type: 'string', required: true, max: 255 },
		customer: text(1000, true),
		status: { type: 'string', max: 50 },
		currency: { type: 'string', format: 'currencyCode' },
		total: { type: 'number', required: true, min: 0 },
	},
} satisfies Record<string, Overrides>;

const TIGHT: Partial<Record<SchemaName, Overrides>> = {
	contact: { first_name: text(20, true), last_name: text(20), company: text(40) },
	product: {
		sku: { type: 'string', required: true, max: 16, format: 'sku' },
		name: text(40, true),
		unit: { type: 'string', max: 10 },
	},
	invoiceLine: { description: text(100, true) },
	markPaid: { reference: { type: 'string', max: 35 } },
	employee: { first_name: text(20, true), last_name: text(20, true), job_title: text(40), department: text(40) },
	order: { reference: { type: 'string', required: true, max: 20 }, customer: text(40, true) },
};

export type SchemaName = keyof typeof LENIENT;

/** A schema's three forms, built once: pick one by the rule set in force. */
export function ruleSchemas(name: SchemaName, base: Schema): (rules: RuleSet) => Schema {
	const built: Record<RuleSet, Schema> = {
		default: base,
		lenient: { ...base, ...LENIENT[name] },
		tight: { ...base, ...TIGHT[name] },
	};
	return (rules) => built[rules];
}
