import type { CustomFields } from '../types';
import type { Values } from '../validate';

/**
 * Applies validated partial-update values to a record in place and returns the names of the fields whose
 * value really changed. `custom_fields` is merged key by key.
 */
export function applyChanges<T extends { custom_fields: CustomFields }>(record: T, values: Values): string[] {
	const changed: string[] = [];
	const target = record as Record<string, unknown>;
	for (const [field, value] of Object.entries(values)) {
		const next = field === 'custom_fields' ? { ...record.custom_fields, ...(value as CustomFields) } : value;
		if (JSON.stringify(target[field]) === JSON.stringify(next)) continue;
		target[field] = next;
		changed.push(field);
	}
	return changed;
}
