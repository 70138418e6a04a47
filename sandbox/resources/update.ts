import { validationFailed } from '../errors';
import type { CustomFields } from '../types';
import { FieldErrors, readFields, type Schema, type Values } from '../validate';
import type { VariantSettings } from '../variants';
import type { ApiContext } from './context';

/**
 * The values a PUT writes. Merge (the default): only the fields in the body, at least one. Replace (the
 * replace-put variant): the body is read like a create (a missing required field is a 422) and every writable
 * field absent from it gets its create default. `check` adds rules of its own to the same 422.
 */
export function readUpdate(
	ctx: ApiContext,
	schema: Schema,
	writable: (values: Values) => object,
	check: (values: Values, errors: FieldErrors) => void = () => {},
): Values {
	const errors = new FieldErrors();
	const replace = ctx.variant.put === 'replace';
	const values = readFields(ctx.body, schema, replace ? 'create' : 'update', errors);
	check(values, errors);
	errors.throwIfAny();
	if (replace) return { ...writable(values) };
	if (Object.keys(values).length === 0) throw validationFailed({ body: ['no fields to update'] });
	return values;
}

/**
 * Applies update values to a record in place and returns the names of the fields whose value really
 * changed. `custom_fields` is merged key by key, or replaced as a whole when the PUT replaces the record.
 */
export function applyChanges<T extends { custom_fields: CustomFields }>(
	record: T,
	values: Values,
	put: VariantSettings['put'] = 'merge',
): string[] {
	const changed: string[] = [];
	const target = record as Record<string, unknown>;
	for (const [field, value] of Object.entries(values)) {
		const merge = field === 'custom_fields' && put === 'merge';
		const next = merge ? { ...record.custom_fields, ...(value as CustomFields) } : value;
		if (JSON.stringify(target[field]) === JSON.stringify(next)) continue;
		target[field] = next;
		changed.push(field);
	}
	return changed;
}
