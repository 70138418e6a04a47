import { nowIso, todayUtc } from './dates';
import { invoiceOverdueData } from './events';
import type { SandboxState } from './state';

/** Turns every `sent` invoice due before `today` into `overdue` (one invoice.overdue each); returns their ids. */
export function sweepOverdue(state: SandboxState, today = todayUtc()): number[] {
	const { store } = state;
	const changed: number[] = [];
	for (const id of [...store.sentInvoices]) {
		const invoice = store.invoices.get(id);
		if (!invoice || invoice.due_date >= today) continue;
		state.trackWrite([{ resource: 'invoices', id }], () => {
			store.setInvoiceStatus(invoice, 'overdue');
			invoice.updated_at = nowIso();
		});
		state.webhooks.emit('invoice.overdue', invoiceOverdueData(invoice, today));
		changed.push(id);
	}
	return changed;
}
