import { toNumber } from '../shared/values';
import type { Records } from './scan';

/** Products whose stock is read one by one before the node looks for a product field that holds it. */
export const STOCK_FIELD_SAMPLE = 20;

/** Fewest products read one by one that must agree with a field before the node trusts it. */
const MIN_AGREEING = 3;

/** Field names that speak of stock come first when more than one field agrees. */
const STOCK_NAME = /stock|quantity|qty|on_hand|available/i;

/** The stock totals in `field` of every product, or undefined when one of them has no number there. */
export function fieldTotals(products: Records, field: string): Map<string, number> | undefined {
	const totals = new Map<string, number>();
	for (const [id, product] of products) {
		const total = toNumber(product[field]);
		if (total === undefined) return undefined;
		totals.set(id, total);
	}
	return totals;
}

export const sameTotal = (a: number, b: number | undefined): boolean => b !== undefined && Math.abs(a - b) < 1e-9;

/**
 * The product field holding each product's total stock, found by comparison, never by its name alone: a field with
 * a number on every product listed that equals the summed warehouse stock of every product read one by one. The
 * API document shows no product fields, so the node cannot know one; a field of zeros on products without stock
 * proves nothing, so the sums read must not all be equal. Undefined when no field qualifies.
 */
export function findStockField(products: Records, read: Map<string, number>): { field: string; totals: Map<string, number> } | undefined {
	if (read.size < MIN_AGREEING || new Set(read.values()).size < 2) return undefined;
	const [firstId] = read.keys();
	const candidates = Object.keys(products.get(firstId) ?? {}).filter(
		(field) =>
			field !== 'id' &&
			[...read].every(([id, total]) => sameTotal(total, toNumber(products.get(id)?.[field]))),
	);
	const rank = (field: string) => (STOCK_NAME.test(field) ? 0 : 1);
	const [field] = candidates.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
	const totals = field === undefined ? undefined : fieldTotals(products, field);
	return field !== undefined && totals ? { field, totals } : undefined;
}
