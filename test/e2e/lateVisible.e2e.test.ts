import { ACTING_STEP, activeConfirmingTrigger, REVIEW_STEP, triggerBranch, type ConfirmingTrigger } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { useSession } from './setup/session';
import { deliveredTo, forDelivery, ofDelivery, sentInvoice } from './support';

describe('ERP Trigger version 2 at its defaults, alone, in a real n8n: a real event the ERP’s API shows late', () => {
	const session = useSession();
	let trigger: ConfirmingTrigger;

	beforeAll(async () => {
		trigger = await activeConfirmingTrigger(session.n8n, session.sandbox, 'e2e confirming trigger: invoice shown paid late', ['invoice.paid'], session.ctx.credentials.good);
	});
	afterAll(async () => {
		await session.sandbox.setFaults({ visibleAfterMs: 0 });
		if (trigger.subscriptionId !== undefined) await session.sandbox.removeWebhook(trigger.subscriptionId);
		await session.n8n.deactivateWorkflow(trigger.workflow.id);
	});

	test('invoice.paid whose invoice the API shows as paid only 5 s after the delivery acts once, on Confirmed', async () => {
		const created = await sentInvoice(session);
		// From here, a record a write changes reads as before for 5 s, as behind a lagging read replica.
		await session.sandbox.setFaults({ visibleAfterMs: 5_000 });
		const pay = () => erpApi(session.ctx, 'POST', `/invoices/${created.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-5120' });
		const key = (await deliveredTo(session.sandbox, trigger.url, 'invoice.paid', pay)).delivery.id;
		const executions = forDelivery(await waitForExecutions(session.n8n, trigger.workflow.id, ofDelivery(key)), key);
		expect(executions).toHaveLength(1);
		const [execution] = executions;
		expect(nodeOutput(execution, ACTING_STEP)).toEqual([
			expect.objectContaining({ event: 'invoice.paid', deliveryKey: key, confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id: created.id, status: 'paid' }) }),
		]);
		expect(triggerBranch(execution, 1)).toEqual([]);
		expect(nodeOutput(execution, REVIEW_STEP)).toEqual([]);
	});
});
