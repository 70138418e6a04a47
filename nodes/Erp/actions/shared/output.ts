import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../../shared/transport/types';
import type { RecordNoun } from '../../../shared/records';
import { argumentLabel } from './tool';

/** n8n's UX guidelines for verified nodes: a simplified record has at most this many fields. */
export const SIMPLIFIED_MAX_FIELDS = 10;

/**
 * The fields a simplified record keeps, most useful first (the sandbox ERP's names). An ERP whose records name
 * them otherwise still gets a simplified record: its other plain fields fill the ten places.
 */
export const SIMPLIFIED_FIELDS: Record<RecordNoun, string[]> = {
	contact: ['id', 'first_name', 'last_name', 'email', 'phone', 'company', 'notes', 'created_at', 'updated_at'],
	invoice: ['id', 'number', 'contact_id', 'status', 'currency', 'total', 'amount_due', 'issue_date', 'due_date', 'paid_at'],
	product: ['id', 'sku', 'name', 'unit_price', 'currency', 'unit', 'stock_total', 'low_stock_threshold', 'active', 'description'],
	employee: ['id', 'employee_number', 'first_name', 'last_name', 'email', 'job_title', 'department', 'employment_type', 'status', 'hire_date'],
};

export type OutputShape = 'raw' | 'simplified' | 'selected';

const isPlain = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** A record's fields with nested objects spelled out as dotted names (`custom_fields.vat_number`); lists stay whole. */
function flatten(record: IDataObject, prefix = ''): Array<[string, unknown]> {
	return Object.entries(record).flatMap(([name, value]): Array<[string, unknown]> =>
		isObject(value) ? flatten(value as IDataObject, `${prefix}${name}.`) : [[`${prefix}${name}`, value]],
	);
}

export function simplified(noun: RecordNoun, record: IDataObject): IDataObject {
	const fields = flatten(record).filter(([, value]) => isPlain(value));
	const known = SIMPLIFIED_FIELDS[noun];
	const rank = (name: string) => (known.includes(name) ? known.indexOf(name) : known.length);
	// A stable sort: the known fields in their order, then the record's other plain fields in its own.
	const kept = fields.map((field, index) => ({ field, index })).sort((a, b) => rank(a.field[0]) - rank(b.field[0]) || a.index - b.index);
	return Object.fromEntries(kept.slice(0, SIMPLIFIED_MAX_FIELDS).map(({ field }) => field)) as IDataObject;
}

function valueAt(record: IDataObject, path: string): unknown {
	if (path in record) return record[path];
	let value: unknown = record;
	for (const part of path.split('.')) value = isObject(value) ? value[part] : undefined;
	return value;
}

export function selected(record: IDataObject, names: string[]): IDataObject {
	const out: IDataObject = {};
	for (const name of ['id', ...names]) {
		const value = valueAt(record, name);
		if (value !== undefined) out[name] = value as IDataObject[string];
	}
	return out;
}

function readFields(this: IExecuteFunctions, itemIndex: number): string[] {
	const raw = this.getNodeParameter('fields', itemIndex, '') as unknown;
	const names = (Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(','))
		.map((name) => name.trim())
		.filter(Boolean);
	if (names.length) return names;
	throw new NodeOperationError(this.getNode(), `${argumentLabel(this.getNode(), 'fields', 'Fields')} is empty: name the fields to return`, {
		itemIndex,
		description: 'Give comma-separated field names such as email, company (the ID is always returned), or choose Output: Simplified.',
	});
}

/** The Output the user chose: the Tool variant's option, or the node's Simplify switch. */
function shapeOf(this: IExecuteFunctions, itemIndex: number): OutputShape {
	const output = this.getNodeParameter('output', itemIndex, '') as string;
	if (output === 'raw' || output === 'simplified' || output === 'selected') return output;
	return this.getNodeParameter('simplify', itemIndex, false) ? 'simplified' : 'raw';
}

/** Get's and Get Many's records in the shape the user (or the tool's builder) chose. */
export function shapeRecords(this: IExecuteFunctions, noun: RecordNoun, itemIndex: number, records: IDataObject[]): IDataObject[] {
	const shape = shapeOf.call(this, itemIndex);
	if (shape === 'raw') return records;
	if (shape === 'simplified') return records.map((record) => simplified(noun, record));
	const names = readFields.call(this, itemIndex);
	return records.map((record) => selected(record, names));
}
