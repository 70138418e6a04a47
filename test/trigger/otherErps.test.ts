import type { INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';
import { runWebhook, type WebhookHarness } from '../support/n8n';
import { startTestSandbox, waitFor, type TestSandbox, type VariantName } from '../support/sandbox';

// Real, signed deliveries from a sandbox playing ERPs that write timestamps otherwise or send newer events:
// the trigger must start the workflow for each, never refuse it (a refused delivery is retried, then lost).

const SECRET = 'whsec_other_erps';
let sandbox: TestSandbox;
let trigger: WebhookHarness | undefined;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(async () => await sandbox.close());
beforeEach(async () => await sandbox.admin.reset());
afterEach(async () => {
	await trigger?.close();
	trigger = undefined;
});

async function listen(parameters: INodeParameters): Promise<WebhookHarness> {
	trigger = await runWebhook({
		nodeType: new ErpTrigger(),
		parameters: { verification: 'hmacSha256', ...parameters },
		credentialType: new ErpApi(),
		credentials: { baseUrl: sandbox.baseUrl, apiToken: 'not-used-by-the-trigger', webhookSecret: SECRET },
	});
	await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
	return trigger;
}

async function onlyDelivery() {
	const [delivery] = await waitFor(async () => {
		const deliveries = await sandbox.admin.deliveries();
		return deliveries.length === 1 && deliveries[0].done && deliveries;
	});
	return delivery;
}

describe('deliveries from ERPs that chose otherwise', () => {
	it.each<[VariantName, RegExp | undefined]>([
		['webhook-timestamp-seconds', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/],
		['webhook-timestamp-offset', /\+00:00$/],
		['webhook-timestamp-compact', /\+0000$/],
		['webhook-timestamp-micros', /\.\d{6}Z$/],
		['webhook-timestamp-unparseable', /./],
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
		expect(call.workflowData?.[0][0].json).toEqual(delivery.body);
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
