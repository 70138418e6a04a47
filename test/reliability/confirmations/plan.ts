import type { Random } from '../../../sandbox/seed/random';

/** Real deliveries: caused by a change in the ERP, through its API (or its warehouse and overdue jobs). */
export type RealKind = 'contact.created' | 'contact.updated' | 'invoice.paid' | 'invoice.overdue' | 'product.low_stock' | 'employee.hired';

/** Forged deliveries: posted to the trigger's URL with a claim the ERP does not hold. */
export type ForgedKind =
	| 'invoice.paid for an unpaid invoice'
	| 'invoice.paid for no invoice'
	| 'invoice.overdue for a paid invoice'
	| 'contact.created for no contact'
	| 'contact.updated for no contact'
	| 'employee.hired for no employee'
	| 'product.low_stock for a well-stocked product';

export const REAL_MIX: Record<RealKind, number> = {
	'contact.created': 250,
	'contact.updated': 150,
	'invoice.paid': 250,
	'invoice.overdue': 50,
	'product.low_stock': 150,
	'employee.hired': 150,
};

export const FORGED_MIX: Record<ForgedKind, number> = {
	'invoice.paid for an unpaid invoice': 250,
	'invoice.paid for no invoice': 100,
	'invoice.overdue for a paid invoice': 100,
	'contact.created for no contact': 150,
	'contact.updated for no contact': 50,
	'employee.hired for no employee': 100,
	'product.low_stock for a well-stocked product': 250,
};

export type Step = { real: true; kind: RealKind } | { real: false; kind: ForgedKind };

const expand = <K extends string>(mix: Record<K, number>) => (Object.entries(mix) as Array<[K, number]>).flatMap(([kind, n]) => Array.from({ length: n }, () => kind));

/** Every step of the run, real and forged mixed in a seeded order. */
export function confirmationPlan(random: Random): Step[] {
	const steps: Step[] = [
		...expand(REAL_MIX).map((kind): Step => ({ real: true, kind })),
		...expand(FORGED_MIX).map((kind): Step => ({ real: false, kind })),
	];
	for (let i = steps.length - 1; i > 0; i--) {
		const j = random.int(0, i);
		[steps[i], steps[j]] = [steps[j], steps[i]];
	}
	return steps;
}

/** How many records of each pool the plan uses up. */
export const POOL_SIZES = {
	/** Sent invoices Mark as Paid turns into real invoice.paid. */
	toPay: REAL_MIX['invoice.paid'],
	/** Sent invoices that stay unpaid: the forged invoice.paid names them. */
	unpaid: FORGED_MIX['invoice.paid for an unpaid invoice'],
	/** Paid invoices: the forged invoice.overdue names them. */
	paid: FORGED_MIX['invoice.overdue for a paid invoice'],
	/** Well-stocked products a warehouse empties (real low stock), and others that stay stocked (forged). */
	toEmpty: REAL_MIX['product.low_stock'],
	stocked: FORGED_MIX['product.low_stock for a well-stocked product'],
};
