import { roundMoney } from './formats';
import type { InvoiceLine } from './types';

/** Totals of an invoice: net and tax summed over the lines, each rounded once to cents. */
export function invoiceTotals(lines: InvoiceLine[]): { subtotal: number; tax_total: number; total: number } {
	let net = 0;
	let tax = 0;
	for (const line of lines) {
		const amount = line.quantity * line.unit_price;
		net += amount;
		tax += (amount * line.tax_rate) / 100;
	}
	const subtotal = roundMoney(net);
	const taxTotal = roundMoney(tax);
	return { subtotal, tax_total: taxTotal, total: roundMoney(subtotal + taxTotal) };
}
