import type { Invoice } from '../../sandbox/types';
import { ACTING_STEP, activeConfirmingTrigger, REVIEW_STEP, triggerBranch, type ConfirmingTrigger } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { nodeOutput, waitForExecutions, type ListedExecution } from '../../tooling/host/executions';
import { connect, type Session } from '../../tooling/host/session';
import { settledDeliveries } from '../../tooling/host/triggers';

/** The executions whose trigger put the delivery `deliveryKey` on either output. */
const forDelivery = (executions: ListedExecution[], deliveryKey: string) =>
	executions.filter((e) => [...triggerBranch(e, 0), ...triggerBranch(e, 1)].some((item) => item.deliveryKey === deliveryKey));

describe('ERP Trigger version 2 at its defaults, alone, in a real n8n: a real event the ERP’s API shows late', () => {
	let session: Session;
	let trigger: ConfirmingTrigger;

	beforeAll(async () => {
		session = await connect();
		trigger = await activeConfirmingTrigger(session.n8n, session.sandbox, 'e2e confirming trigger: invoice shown paid late', ['invoice.paid'], session.ctx.credentials.good);
	});
	afterAll(async () => {
		await session.sandbox.setFaults({ visibleAfterMs: 0 });
		if (trigger.subscriptionId !== undefined) await session.sandbox.removeWebhook(trigger.subscriptionId);
		await session.n8n.deactivateWorkflow(trigger.workflow.id);
	});

	test('invoice.paid whose invoice the API shows as paid only 5 s after the delivery acts once, on Confirmed', async () => {
		const [contact] = await session.sandbox.records('contacts');
		const created = await erpApi<Invoice>(session.ctx, 'POST', '/invoices', { contact_id: contact.id, lines: [{ description: 'Shelving', quantity: 2, unit_price: 95, tax_rate: 20 }] });
		await erpApi(session.ctx, 'POST', `/invoices/${created.id}/send`, { email: 'ap@example.com' });
		// From here, a record a write changes reads as before for 5 s, as behind a lagging read replica.
		await session.sandbox.setFaults({ visibleAfterMs: 5_000 });
		const lastSeq = (await session.sandbox.events()).at(-1)?.seq ?? 0;
		await erpApi(session.ctx, 'POST', `/invoices/${created.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-5120' });
		const [emitted] = (await session.sandbox.events()).filter((e) => e.seq > lastSeq && e.event === 'invoice.paid');

		const delivery = (await settledDeliveries(session.sandbox, emitted.deliveryIds)).find((d) => d.url === trigger.url);
		expect(delivery?.attempts.map((a) => a.status)).toEqual([200]);
		const key = delivery?.id ?? '';
		const executions = forDelivery(await waitForExecutions(session.n8n, trigger.workflow.id, (all) => forDelivery(all, key).length > 0), key);
		expect(executions).toHaveLength(1);
		const [execution] = executions;
		expect(nodeOutput(execution, ACTING_STEP)).toEqual([
			expect.objectContaining({ event: 'invoice.paid', deliveryKey: key, confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id: created.id, status: 'paid' }) }),
		]);
		expect(triggerBranch(execution, 1)).toEqual([]);
		expect(nodeOutput(execution, REVIEW_STEP)).toEqual([]);
	});
});
