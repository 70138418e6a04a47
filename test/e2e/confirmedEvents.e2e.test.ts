import type { Invoice } from '../../sandbox/types';
import { ACTING_STEP, activeConfirmingTrigger, REVIEW_STEP, triggerBranch, type ConfirmingTrigger } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { atLeast, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { useSession } from './setup/session';
import { paidEvent, postDelivery, settledDeliveries } from '../../tooling/host/triggers';
import type { Credential } from '../../tooling/host/types';
import { deliveredTo, forDelivery, ofDelivery, readOnlyCredential, sentInvoice } from './support';

describe('ERP Trigger version 2 inside a real n8n: each delivery confirmed with the ERP before it reaches the acting steps', () => {
	const session = useSession();
	let trigger: ConfirmingTrigger;
	/** Every trigger this file made: deactivated and unsubscribed after it, so that no later file's invoice.paid is read back by them. */
	const made: ConfirmingTrigger[] = [];
	const keep = (one: ConfirmingTrigger) => {
		made.push(one);
		return one;
	};

	beforeAll(async () => {
		// The trigger as a user adds it: Confirmation Wait at its default (3 s), within the sandbox's 5 s wait for an answer.
		trigger = keep(await activeConfirmingTrigger(session.n8n, session.sandbox, 'e2e confirming trigger: invoice paid → ship', ['invoice.paid'], session.ctx.credentials.good));
	});
	afterAll(async () => {
		for (const { workflow, subscriptionId } of made) {
			if (subscriptionId !== undefined) await session.sandbox.removeWebhook(subscriptionId);
			await session.n8n.deactivateWorkflow(workflow.id);
		}
	});

	/** Forges an invoice.paid to the trigger; answers the trigger's one execution for it, once the sandbox saw it answered 200. */
	const forged = async (data: Record<string, unknown>) => {
		const [delivery] = await session.sandbox.forge({ event: 'invoice.paid', data, subscriptionId: trigger.subscriptionId });
		expect((await settledDeliveries(session.sandbox, [delivery.id]))[0].attempts.map((a) => a.status)).toEqual([200]);
		const executions = forDelivery(await waitForExecutions(session.n8n, trigger.workflow.id, ofDelivery(delivery.id)), delivery.id);
		expect(executions).toHaveLength(1);
		return executions[0];
	};

	test('a forged invoice.paid for an unpaid invoice, or one that does not exist, is answered 2xx, shows on Unconfirmed with the reason, and never reaches the acting step', async () => {
		const invoice = await sentInvoice(session);
		const { data } = paidEvent(invoice);
		const unpaid = await forged(data);
		const missing = await forged({ invoice_id: 90001, amount: 1, currency: 'EUR' });

		expect(triggerBranch(unpaid, 0)).toEqual([]);
		const [refused] = triggerBranch(unpaid, 1);
		expect(refused.confirmation.status).toBe('contradicted');
		expect(refused.confirmation.reason).toEqual(expect.stringContaining(String(invoice.id)));
		expect(refused.record).toMatchObject({ id: invoice.id, status: 'sent' });
		expect(refused.data).toEqual(data);
		expect(nodeOutput(unpaid, ACTING_STEP)).toEqual([]);
		expect(nodeOutput(unpaid, REVIEW_STEP)).toEqual([refused]);
		expect((await session.sandbox.record('invoices', invoice.id))?.status).toBe('sent');
		expect(triggerBranch(missing, 1).map((item) => item.confirmation.status)).toEqual(['contradicted']);
		expect(nodeOutput(missing, ACTING_STEP)).toEqual([]);
	});

	test('the real invoice.paid after Mark as Paid reaches the acting step with the invoice as the ERP holds it (its lines and contact_id)', async () => {
		const invoice = await sentInvoice(session);
		const pay = () => erpApi(session.ctx, 'POST', `/invoices/${invoice.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-4410' });
		const { emitted, delivery } = await deliveredTo(session.sandbox, trigger.url, 'invoice.paid', pay);
		const paid = (await session.sandbox.record('invoices', invoice.id)) as Invoice;

		const [execution] = forDelivery(await waitForExecutions(session.n8n, trigger.workflow.id, ofDelivery(delivery.id)), delivery.id);
		const [acted] = nodeOutput(execution, ACTING_STEP);
		expect(acted).toMatchObject({ event: 'invoice.paid', deliveryKey: delivery.id, confirmation: { status: 'confirmed' }, data: emitted.data });
		expect(acted.record).toEqual(paid);
		expect(acted.record).toMatchObject({ status: 'paid', contact_id: invoice.contact_id, lines: invoice.lines });
		expect(triggerBranch(execution, 1)).toEqual([]);
		expect(nodeOutput(execution, REVIEW_STEP)).toEqual([]);
	});

	test('a version-1 workflow saved before this change behaves as today: the forged invoice.paid starts it as sent', async () => {
		const v1 = keep(await activeConfirmingTrigger(session.n8n, session.sandbox, 'e2e version-1 trigger, saved before confirmation', ['invoice.paid'], undefined, { typeVersion: 1 }));
		const data = { invoice_id: 90002, amount: 1, currency: 'EUR' };
		const [forged] = await session.sandbox.forge({ event: 'invoice.paid', data, subscriptionId: v1.subscriptionId });

		const [delivery] = await settledDeliveries(session.sandbox, [forged.id]);
		expect(delivery.attempts.map((a) => a.status)).toEqual([200]);
		const [execution] = await waitForExecutions(session.n8n, v1.workflow.id);
		expect(nodeOutput(execution, ACTING_STEP)).toEqual([{ ...(delivery.body as object), deliveryKey: forged.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
	});

	describe('the ERP failing during the read-back', () => {
		let readOnly: Credential;
		let failing: ConfirmingTrigger;
		beforeAll(async () => {
			// Confirmation only reads: the read-only token does, and keeps this ERP's failures out of the rate
			// controller the other tests' credential shares.
			readOnly = await readOnlyCredential(session);
			failing = keep(
				await activeConfirmingTrigger(session.n8n, session.sandbox, 'e2e confirming trigger, ERP failing', ['invoice.paid'], readOnly, {
					subscribed: false,
					options: { confirmationWait: 0 },
				}),
			);
		});
		afterAll(() => session.sandbox.clearFaultQueue());

		test('answered 503 with Retry-After, the workflow starts on Unconfirmed as could not confirm with the reason; sent again once the ERP answers, it is confirmed', async () => {
			const paid = (await session.sandbox.records('invoices')).find((i) => i.status === 'paid') as Invoice;
			await session.sandbox.queueFault({ match: { method: 'GET', path: `/invoices/${paid.id}` }, fault: { kind: 'status', status: 500 }, times: 1000 });
			const body = paidEvent(paid);

			const failed = await postDelivery(failing.url, body, `e2e-retry-${paid.id}`);
			expect(failed.status).toBe(503);
			expect(Number(failed.headers.get('retry-after'))).toBeGreaterThan(0);
			expect(await failed.json()).toMatchObject({ message: expect.stringMatching(/could not confirm/i), reason: expect.stringContaining(String(paid.id)) });
			const [first] = await waitForExecutions(session.n8n, failing.workflow.id);
			const [unsure] = triggerBranch(first, 1);
			expect(unsure.confirmation).toEqual({ status: 'couldNotConfirm', reason: expect.stringMatching(/500/) });
			expect(nodeOutput(first, ACTING_STEP)).toEqual([]);
			expect(nodeOutput(first, REVIEW_STEP)).toEqual([unsure]);

			await session.sandbox.clearFaultQueue();
			const again = await postDelivery(failing.url, body, `e2e-retry-${paid.id}`);
			expect(again.status).toBe(200);
			const executions = await waitForExecutions(session.n8n, failing.workflow.id, atLeast(2));
			expect(executions).toHaveLength(2);
			expect(nodeOutput(executions[1], ACTING_STEP)).toMatchObject([{ confirmation: { status: 'confirmed' }, record: { id: paid.id, status: 'paid' } }]);
		});

		// Last here: the 429's wait holds this credential's requests to the ERP for 3 s.
		test('a read held past its answer by a 429 naming 3 s: answered 200 at once, read in its turn, the workflow starts on Confirmed with the record', async () => {
			const paid = (await session.sandbox.records('invoices')).filter((i) => i.status === 'paid')[1];
			await session.sandbox.queueFault({ match: { method: 'GET', path: `/invoices/${paid.id}` }, fault: { kind: 'rateLimit', retryAfter: 3 } });
			const since = await session.sandbox.lastRequestSeq();
			const key = `e2e-held-${paid.id}`;

			const answer = await postDelivery(failing.url, paidEvent(paid), key);
			const answeredAt = Date.now();
			expect(answer.status).toBe(200);
			expect(await answer.json()).toEqual({ message: 'Event received: it is confirmed with the ERP as soon as its rate limit allows, then the workflow starts' });
			const [execution] = forDelivery(await waitForExecutions(session.n8n, failing.workflow.id, ofDelivery(key)), key);
			expect(nodeOutput(execution, ACTING_STEP)).toMatchObject([{ deliveryKey: key, confirmation: { status: 'confirmed' }, record: { id: paid.id, status: 'paid' } }]);
			// The read that confirmed it reached the ERP after n8n had answered.
			const reads = (await session.sandbox.requests(since)).filter((r) => r.path === `/invoices/${paid.id}`);
			expect(reads.map((r) => r.status)).toEqual([429, 200]);
			expect(Date.parse(reads[1].at)).toBeGreaterThan(answeredAt);
		});
	});
});
