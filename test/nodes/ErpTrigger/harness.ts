import type { INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import type { Delivery } from '../../../sandbox/webhooks';
import { runWebhook, type WebhookHarness } from '../../support/n8n';
import { useTestSandbox, waitFor, type TestSandbox } from '../../support/sandbox';

export interface TriggerHarness {
	/** One sandbox for the file, reset before each test. */
	sandbox: TestSandbox;
	/** The ERP Trigger listening in n8n-core's WebhookContext, closed after the test. */
	startTrigger(parameters: INodeParameters, secret: string): Promise<WebhookHarness>;
	/** The ERP's record of its one delivery, once it has finished (delivered or given up). */
	finishedDelivery(): Promise<Delivery>;
}

/** The sandbox's real deliveries (its own signing, headers and retries) to an ERP Trigger, over HTTP. */
export function useTriggerHarness(): TriggerHarness {
	const sandbox = useTestSandbox();
	let trigger: WebhookHarness | undefined;
	afterEach(async () => {
		await trigger?.close();
		trigger = undefined;
	});
	return {
		sandbox,
		async startTrigger(parameters, secret) {
			trigger = await runWebhook({
				nodeType: new ErpTrigger(),
				parameters,
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: 'not-used-by-the-trigger', webhookSecret: secret },
			});
			return trigger;
		},
		async finishedDelivery() {
			const [delivery] = await waitFor(async () => {
				const deliveries = await sandbox.admin.deliveries();
				return deliveries.length === 1 && deliveries[0].done && deliveries;
			});
			return delivery;
		},
	};
}
