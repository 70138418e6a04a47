import { contentDigest } from '../../../nodes/ErpTrigger/deliveryKey';
import type { ErpDelivery } from '../../../nodes/ErpTrigger/parseDelivery';
import type { Delivery } from '../../../sandbox/webhooks';
import type { WebhookCall, WebhookHarness } from '../../../tooling/harness';
import { waitFor } from '../../../tooling/harness/sandbox';
import { useTriggerHarness } from './harness';

// The deliveryKey of the sandbox's real deliveries: the same for every copy of one delivery (a resend, or under
// no-delivery-id the same bytes delivered twice), another one for another delivery.

const { sandbox, startTrigger } = useTriggerHarness();

const keyOf = (call: WebhookCall) => call.workflowData?.[0][0].json.deliveryKey;

/** The sandbox's deliveries, once `count` of them have finished. */
const finished = (count: number) =>
	waitFor(async () => {
		const deliveries = await sandbox.admin.deliveries();
		return deliveries.length === count && deliveries.every((d) => d.done) && deliveries;
	});

/** What an ERP's "resend" does: the request it made once more, the same bytes and headers. */
async function resend(trigger: WebhookHarness, call: WebhookCall): Promise<WebhookCall> {
	const headers = Object.entries(call.request.headers).filter(([name]) => !['content-length', 'host', 'connection'].includes(name));
	const before = trigger.calls.length;
	const response = await fetch(trigger.url, { method: 'POST', headers: headers as Array<[string, string]>, body: call.request.rawBody });
	expect(response.status).toBe(200);
	return (await trigger.waitForCalls(before + 1))[before];
}

describe('deliveryKey of real deliveries', () => {
	it('X-Erp-Delivery (default): the key is the delivery id, the same on a resend, another for the next delivery', async () => {
		const trigger = await startTrigger({ events: ['*'] }, 'not-used');
		await sandbox.admin.addWebhook({ url: trigger.url });
		await sandbox.admin.emit('invoice.paid', { invoice_id: 7, amount: 119.5, currency: 'EUR' });
		const [first] = await trigger.waitForCalls(1);
		await sandbox.admin.emit('invoice.paid', { invoice_id: 7, amount: 119.5, currency: 'EUR' });
		const [, second] = await trigger.waitForCalls(2);
		const [one, two] = await finished(2);
		const again = await resend(trigger, first);

		expect(first.request.headers['x-erp-delivery']).toBe(one.id);
		expect([keyOf(first), keyOf(second), keyOf(again)]).toEqual([one.id, two.id, one.id]);
		expect(again.request.rawBody?.equals(first.request.rawBody as Buffer)).toBe(true);
		expect(one.id).not.toBe(two.id);
	});

	it('webhook-id-header: the key is the Webhook-Id value', async () => {
		await sandbox.admin.setVariants(['webhook-id-header']);
		const trigger = await startTrigger({ events: ['*'] }, 'not-used');
		await sandbox.admin.addWebhook({ url: trigger.url });
		await sandbox.admin.emit('contact.created');
		const [call] = await trigger.waitForCalls(1);
		const [delivery] = await finished(1);

		expect(call.request.headers['x-erp-delivery']).toBeUndefined();
		expect(call.request.headers['webhook-id']).toBe(delivery.id);
		expect(keyOf(call)).toBe(delivery.id);
	});

	describe('no-delivery-id: no id header, so the key is the digest of event, timestamp and data', () => {
		let trigger: WebhookHarness;
		let deliveries: Delivery[];
		let calls: WebhookCall[];

		beforeEach(async () => {
			await sandbox.admin.setVariants(['no-delivery-id']);
			trigger = await startTrigger({ events: ['*'], options: { dataAtTopLevel: true } }, 'not-used');
			// Two subscriptions to one URL: each event is delivered twice, the same bytes, as a resend would be.
			await sandbox.admin.addWebhook({ url: trigger.url });
			await sandbox.admin.addWebhook({ url: trigger.url });
			await sandbox.admin.emit('invoice.paid', { invoice_id: 7, amount: 119.5, currency: 'EUR' });
			await trigger.waitForCalls(2);
			await sandbox.admin.emit('invoice.paid', { invoice_id: 8, amount: 119.5, currency: 'EUR' });
			calls = await trigger.waitForCalls(4);
			deliveries = await finished(4);
		});

		it('two deliveries of one event get the same key, the digest of its body', () => {
			const body = deliveries[0].body as ErpDelivery;

			expect(calls.map((call) => call.request.headers['webhook-id'] ?? call.request.headers['x-erp-delivery'])).toEqual([undefined, undefined, undefined, undefined]);
			expect(calls[1].request.rawBody?.equals(calls[0].request.rawBody as Buffer)).toBe(true);
			expect(keyOf(calls[0])).toBe(contentDigest(body));
			expect(keyOf(calls[1])).toBe(keyOf(calls[0]));
			expect(calls[0].workflowData?.[0][0].json).toEqual({ ...body.data, event: 'invoice.paid', timestamp: body.timestamp, deliveryKey: contentDigest(body) });
		});

		it('another event gets another key, the same for both its deliveries', () => {
			expect(keyOf(calls[2])).toBe(keyOf(calls[3]));
			expect(keyOf(calls[2])).toBe(contentDigest(deliveries[2].body as ErpDelivery));
			expect(keyOf(calls[2])).not.toBe(keyOf(calls[0]));
		});
	});
});
