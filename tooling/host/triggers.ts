import type { Invoice } from '../../sandbox/types';
import type { Delivery } from '../../sandbox/webhooks';
import { erpTriggerType, triggerUrl } from './examples';
import { erpTriggerNode } from './workflows';
import { sleep } from './processes';
import type { SandboxAdmin } from '../../sandbox/adminClient';
import type { ConfirmingTrigger } from './confirmingTrigger';
import type { Credential } from './types';
import type { Session } from './session';

export type ActiveTrigger = Pick<ConfirmingTrigger, 'workflow' | 'url'>;

export interface TriggerOptions {
	/** Signature check: an ERP API credential whose Webhook Signing Secret is the trigger's secret. */
	signedWith?: Credential;
	/** The secret the sandbox signs its deliveries with; none: unsigned. */
	sandboxSecret?: string;
	/** Whether the sandbox delivers its events to the trigger (default); false: only the test posts to it. */
	subscribed?: boolean;
}

/** An active workflow of one ERP Trigger listening to `events`, its URL subscribed to every sandbox event (another event's delivery must start nothing) unless `subscribed` is false. */
export async function activeTrigger(session: Session, name: string, events: string[], options: TriggerOptions = {}): Promise<ActiveTrigger> {
	const node = erpTriggerNode(options.signedWith ? { events, verification: 'hmacSha256' } : { events }, options.signedWith);
	const workflow = await session.n8n.createActiveWorkflow({ name, nodes: [node], connections: {} });
	const url = triggerUrl(session.ctx.n8nUrl, node, await erpTriggerType(session.n8n));
	if (options.subscribed !== false) await session.sandbox.addWebhook({ url, secret: options.sandboxSecret });
	return { workflow, url };
}

/** Waits until the sandbox has finished these deliveries (delivered, or its retries exhausted). */
export async function settledDeliveries(sandbox: SandboxAdmin, deliveryIds: string[], timeoutMs = 30_000): Promise<Delivery[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const deliveries = (await sandbox.deliveries()).filter((d) => deliveryIds.includes(d.id));
		if (deliveries.every((d) => d.done) || Date.now() > deadline) return deliveries;
		await sleep(100);
	}
}

/** POSTs a delivery to a trigger URL as the ERP does: JSON, its event named in X-Erp-Event and, if given, its id in X-Erp-Delivery. */
export const postDelivery = (url: string, body: object, deliveryId?: string) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-erp-event': String((body as { event?: unknown }).event), ...(deliveryId ? { 'x-erp-delivery': deliveryId } : {}) },
		body: JSON.stringify(body),
	});

/** The invoice.paid an ERP sends for this invoice, stamped now. */
export const paidEvent = (invoice: Pick<Invoice, 'id' | 'total' | 'currency'>) => ({
	event: 'invoice.paid',
	timestamp: new Date().toISOString(),
	data: { invoice_id: invoice.id, amount: invoice.total, currency: invoice.currency },
});
