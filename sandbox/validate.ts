import { validationFailed, type FieldMessages } from './errors';
import { FORMATS, hasAtMostTwoDecimals, type Format } from './formats';
import type { CustomFields, JsonObject } from './types';

/** Collects per-field messages; `throwIfAny` turns them into one 422. */
export class FieldErrors {
	readonly fields: FieldMessages = {};

	add(field: string, message: string): void {
		(this.fields[field] ??= []).push(message);
	}

	has(field: string): boolean {
		return field in this.fields;
	}

	throwIfAny(): void {
		if (Object.keys(this.fields).length > 0) throw validationFailed(this.fields);
	}
}

interface Common {
	required?: boolean;
	/** Optional fields without a default: null (or "") stores null, clearing the value on update. */
	nullable?: boolean;
}

export type FieldSpec = Common &
	(
		| { type: 'string'; max?: number; format?: Format; oneOf?: readonly string[] }
		| { type: 'number'; min?: number; above?: number; max?: number; integer?: boolean; money?: boolean }
		| { type: 'boolean' }
		| { type: 'custom_fields' }
	);

export type Schema = Record<string, FieldSpec>;

export type Values = Record<string, unknown>;

/**
 * Validates the fields of `schema` present in `body` and returns their clean values (strings trimmed; ""
 * and null become null). Fields absent from the body are absent from the result; unknown fields are
 * ignored. `create` also reports missing required fields.
 */
export function readFields(
	body: JsonObject,
	schema: Schema,
	mode: 'create' | 'update',
	errors: FieldErrors,
	prefix = '',
): Values {
	const values: Values = {};
	for (const [name, spec] of Object.entries(schema)) {
		const field = prefix + name;
		const raw = typeof body[name] === 'string' ? (body[name] as string).trim() : body[name];
		if (raw === undefined || raw === null || raw === '') {
			if (spec.required && (mode === 'create' || raw !== undefined)) errors.add(field, 'is required');
			else if (raw !== undefined && spec.nullable) values[name] = null;
			else if (raw !== undefined && mode === 'update') errors.add(field, 'cannot be empty');
			continue;
		}
		const message = check(raw, spec);
		if (typeof message === 'string') errors.add(field, message);
		else if (spec.type === 'custom_fields') checkCustomFields(raw, field, errors, values, name);
		else values[name] = raw;
	}
	return values;
}

/**
 * A list of objects under `field` (e.g. an invoice's `lines`), each read with `schema` like a create; messages name
 * the item (`lines[0].unit_price`). Whether the list may be absent or empty is the caller's rule.
 */
export function readList(raw: unknown, field: string, schema: Schema, errors: FieldErrors): Values[] {
	if (!Array.isArray(raw)) {
		errors.add(field, `must be a list of ${field}`);
		return [];
	}
	return raw.map((item: unknown, i) => {
		if (isPlainObject(item)) return readFields(item, schema, 'create', errors, `${field}[${i}].`);
		errors.add(`${field}[${i}]`, 'must be an object');
		return {};
	});
}

function check(value: unknown, spec: FieldSpec): string | undefined {
	switch (spec.type) {
		case 'string':
			if (typeof value !== 'string') return 'must be a string';
			if (spec.max !== undefined && value.length > spec.max) return `must be at most ${spec.max} characters`;
			if (spec.oneOf && !spec.oneOf.includes(value)) return `must be one of: ${spec.oneOf.join(', ')}`;
			if (spec.format && !FORMATS[spec.format].test(value)) return FORMATS[spec.format].message;
			return undefined;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
			if (spec.integer && !Number.isInteger(value)) return 'must be an integer';
			if (spec.min !== undefined && value < spec.min) return `must be at least ${spec.min}`;
			if (spec.above !== undefined && value <= spec.above) return `must be greater than ${spec.above}`;
			if (spec.max !== undefined && value > spec.max) return `must be at most ${spec.max}`;
			if (spec.money && !hasAtMostTwoDecimals(value)) return 'must have at most 2 decimals';
			return undefined;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be true or false';
		case 'custom_fields':
			return isPlainObject(value) ? undefined : 'must be an object';
	}
}

function checkCustomFields(raw: unknown, field: string, errors: FieldErrors, values: Values, name: string): void {
	const fields: CustomFields = {};
	for (const [key, value] of Object.entries(raw as JsonObject)) {
		if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
			fields[key] = value as CustomFields[string];
		} else {
			errors.add(`${field}.${key}`, 'must be a string, number, boolean or null');
		}
	}
	values[name] = fields;
}

export const isPlainObject = (value: unknown): value is JsonObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
