import { contactFields, contactFilters } from '../../nodes/Erp/actions/contact/fields';
import { employeeFields, employeeFilters } from '../../nodes/Erp/actions/employee/fields';
import { invoiceFields, invoiceFilters, lineFields } from '../../nodes/Erp/actions/invoice/fields';
import { productFields, productFilters } from '../../nodes/Erp/actions/product/fields';
import type { FieldSpecs } from '../../nodes/Erp/actions/shared/fields';
import type { SandboxAdmin } from '../../sandbox/adminClient';

/**
 * The rule for a tool's description, the text a model reads: a few sentences true of every ERP following the API
 * document, naming no field or filter (each ERP chooses its fields; each argument has its $fromAI() description).
 */
export const TOOL_TEXT_MAX_LENGTH = 300;

/** Names that are also the plain words a description needs: its ID, "a whole number", the resources' own names. */
const PLAIN_WORDS = new Set(['id', 'number', 'contact', 'invoice', 'product', 'employee']);

const SPECS: FieldSpecs[] = [contactFields, contactFilters, invoiceFields, invoiceFilters, lineFields, productFields, productFilters, employeeFields, employeeFilters];

/** The fields and filters of the ERP node's parameters, by their API names and their labels. */
export const parameterNames = (): string[] => SPECS.flatMap((specs) => Object.values(specs).flatMap((spec) => [spec.apiName, spec.property.displayName]));

/** The field names of the records an ERP holds (of every kind, and of the objects in their lists, such as invoice lines). */
export async function recordFieldNames(admin: SandboxAdmin): Promise<string[]> {
	const kinds = ['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const;
	const names = new Set<string>();
	for (const kind of kinds) {
		const records = (await admin.records(kind)) as unknown as Array<Record<string, unknown>>;
		if (records.length === 0) throw new Error(`The sandbox holds no ${kind}: seed it first`);
		for (const record of records) {
			for (const [name, value] of Object.entries(record)) {
				names.add(name);
				if (Array.isArray(value)) for (const entry of value) if (entry && typeof entry === 'object') Object.keys(entry).forEach((key) => names.add(key));
			}
		}
	}
	return [...names];
}

const escaped = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The names a description mentions as words of their own, in any case, but for the plain words and `key`, the field
 * an operation finds a record by (Create or Update's email or SKU), which its description may name.
 */
export function namedIn(text: string, names: Iterable<string>, key?: string): string[] {
	const allowed = new Set([...PLAIN_WORDS, ...(key ? [key.toLowerCase()] : [])]);
	const mentioned = [...new Set(names)].filter(
		(name) => !allowed.has(name.toLowerCase()) && new RegExp(`(?<![A-Za-z0-9_])${escaped(name)}(?![A-Za-z0-9_])`, 'i').test(text),
	);
	return mentioned.sort();
}
