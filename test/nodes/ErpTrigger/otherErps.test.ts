import type { INodeParameters } from 'n8n-workflow';

import type { WebhookHarness } from '../../../tooling/harness';
import type { VariantName } from '../../../tooling/harness/sandbox';
import { useTriggerHarness } from './harness';

// Real, signed deliveries from a sandbox playing ERPs that write timestamps otherwise or send newer events:
// the trigger must start the workflow for each, never refuse it (a refused delivery is retried, then lost).

const SECRET = 'whsec_other_erps';
const { sandbox, startTrigger, finishedDelivery: onlyDelivery } = useTriggerHarness();

async function listen(parameters: INodeParameters): Promise<WebhookHarness> {
	const trigger = await startTrigger({ verification: 'hmacSha256', ...parameters }, SECRET);
	await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
	return trigger;
}

describe('deliveries from ERPs that chose otherwise', () => {
	it.each<[VariantName, RegExp | undefined]>([
		['webhook-timestamp-seconds', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
		['webhook-timestamp-offset', /\+00:00$/],
		['webhook-timestamp-compact', /\+0000$/],
		['webhook-timestamp-micros', /\.\d{6}Z$/],
		['webhook-timestamp-unparseable', /^\d\d\.\d\d\.\d{4} um \d\d:\d\d:\d\d Uhr$/],
		['webhook-timestamp-missing', undefined],
	])('%s: the delivery starts the workflow, its timestamp kept exactly as sent', async (variant, form) => {
		await sandbox.admin.setVariants([variant]);
		const harness = await listen({ events: ['invoice.paid'] });
		await sandbox.admin.emit('invoice.paid');

		const [call] = await harness.waitForCalls(1);
		const delivery = await onlyDelivery();
		const sent = delivery.body as { timestamp?: string };
		expect(call.status).toBe(200);
		expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 200 }] });
		expect(call.workflowData?.[0][0].json).toEqual({ ...sent, deliveryKey: delivery.id });
		if (form) expect(sent.timestamp).toMatch(form);
		else expect(sent).not.toHaveProperty('timestamp');
	});

	it('future-events: a new event name starts an All Events workflow', async () => {
		await sandbox.admin.setVariants(['future-events']);
		const harness = await listen({ events: ['*'] });
		await sandbox.admin.emit('invoice.created', { invoice_id: 7 });

		const [call] = await harness.waitForCalls(1);
		expect(call.status).toBe(200);
		expect(call.workflowData?.[0][0].json).toMatchObject({ event: 'invoice.created', data: { invoice_id: 7 } });
		expect(await onlyDelivery()).toMatchObject({ delivered: true });
	});

	it('future-events: with a selection of events, a new name is acknowledged (200) and starts nothing', async () => {
		await sandbox.admin.setVariants(['future-events']);
		const harness = await listen({ events: ['invoice.paid'] });
		await sandbox.admin.emit('invoice.created', { invoice_id: 7 });

		const [call] = await harness.waitForCalls(1);
		expect(call.status).toBe(200);
		expect(call.workflowData).toBeUndefined();
		expect(await onlyDelivery()).toMatchObject({ delivered: true, attempts: [{ status: 200 }] });
	});
});
