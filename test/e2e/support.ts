import type { Invoice } from '../../sandbox/types';
import type { Delivery, EmittedEvent } from '../../sandbox/webhooks';
import type { SandboxAdmin } from '../../sandbox/adminClient';
import { triggerBranch } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import type { ListedExecution } from '../../tooling/host/executions';
import type { Session } from '../../tooling/host/session';
import { settledDeliveries } from '../../tooling/host/triggers';

// What several e2e files do alike: make invoices through the ERP's API, and find the delivery an ERP change caused.

export const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A new invoice (of the first seeded contact unless `fields` name one), sent, as the ERP holds it then. */
export async function sentInvoice(session: Pick<Session, 'ctx' | 'sandbox'>, fields: Record<string, unknown> = {}): Promise<Invoice> {
	const [contact] = await session.sandbox.records('contacts');
	const { id } = await erpApi<Invoice>(session.ctx, 'POST', '/invoices', {
		contact_id: contact.id,
		lines: [{ description: 'Pallet racking, 6 bays', quantity: 6, unit_price: 189.5, tax_rate: 20 }],
		...fields,
	});
	await erpApi(session.ctx, 'POST', `/invoices/${id}/send`, { email: 'ap@example.com' });
	return (await session.sandbox.record('invoices', id)) as Invoice;
}

/** A sent invoice due `daysOverdue` days ago, turned overdue by the sandbox's sweep (which emits invoice.overdue), as the ERP then holds it. */
export async function overdueInvoice(session: Pick<Session, 'ctx' | 'sandbox'>, daysOverdue: number, fields: Record<string, unknown> = {}): Promise<Invoice> {
	const invoice = await sentInvoice(session, { issue_date: isoDay(-30 - daysOverdue), due_date: isoDay(-daysOverdue), ...fields });
	await session.sandbox.sweep();
	return (await session.sandbox.record('invoices', invoice.id)) as Invoice;
}

/** A new ERP API credential with the read-only token. */
export const readOnlyCredential = (session: Session) =>
	session.n8n.createCredential(`ERP API read-only (e2e ${Date.now()})`, 'erpApi', { baseUrl: session.ctx.sandboxBaseUrl, apiToken: session.ctx.readOnlyToken });

/** The seq of the sandbox's last event: the events after it are the ones a test caused. */
export const lastEventSeq = async (sandbox: SandboxAdmin) => (await sandbox.events()).at(-1)?.seq ?? 0;

/**
 * Runs `act`, which makes the ERP emit `event`; answers what `act` answered, the first such event after it whose
 * data `matches`, and the sandbox's delivery of it to `url`, acknowledged 200 at the first attempt.
 */
export async function deliveredTo<T>(
	sandbox: SandboxAdmin,
	url: string,
	event: string,
	act: () => Promise<T>,
	matches: (data: Record<string, unknown>, result: T) => boolean = () => true,
): Promise<{ result: T; emitted: EmittedEvent; delivery: Delivery }> {
	const since = await lastEventSeq(sandbox);
	const result = await act();
	const emitted = (await sandbox.events()).find((e) => e.seq > since && e.event === event && matches(e.data as Record<string, unknown>, result));
	if (!emitted) throw new Error(`the ERP emitted no matching ${event}`);
	const delivery = (await settledDeliveries(sandbox, emitted.deliveryIds)).find((d) => d.url === url);
	if (!delivery) throw new Error(`the sandbox made no delivery of ${event} to ${url}`);
	expect({ delivered: delivery.delivered, attempts: delivery.attempts.map((a) => a.status) }).toEqual({ delivered: true, attempts: [200] });
	return { result, emitted, delivery };
}

/** The executions whose trigger put the delivery `deliveryKey` on either output. */
export const forDelivery = (executions: ListedExecution[], deliveryKey: string) =>
	executions.filter((e) => [...triggerBranch(e, 0), ...triggerBranch(e, 1)].some((item) => item.deliveryKey === deliveryKey));

/** Any executions for the delivery `deliveryKey`: a waitForExecutions condition. */
export const ofDelivery = (deliveryKey: string) => (executions: ListedExecution[]) => forDelivery(executions, deliveryKey).length > 0;
