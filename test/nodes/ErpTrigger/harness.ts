import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import type { Delivery } from '../../../sandbox/webhooks';
import { runWebhook, type WebhookHarness } from '../../../tooling/harness';
import { callWebhook, webhookEndpoint, WebhookResponse } from '../../../tooling/harness/run-webhook';
import { useTestSandbox, waitFor, type TestSandbox } from '../../../tooling/harness/sandbox';

export interface TriggerHarness {
	/** One sandbox for the file, reset before each test. */
	sandbox: TestSandbox;
	/** The ERP Trigger listening in n8n-core's WebhookContext, closed after the test. */
	startTrigger(parameters: INodeParameters, secret: string): Promise<WebhookHarness>;
	/** The ERP's record of its one delivery, once it has finished (delivered or given up). */
	finishedDelivery(): Promise<Delivery>;
}

/** The sandbox's real deliveries (its own signing, headers and retries) to an ERP Trigger version 1, over HTTP. */
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
				typeVersion: 1,
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

export interface DeliveryRequest {
	/** Node parameters as the user set them; n8n's defaults fill the rest. */
	parameters?: INodeParameters;
	/** Default: Content-Type application/json. */
	headers?: Record<string, string>;
	/** The raw body; a string is UTF-8 encoded. Default: none (as for a multipart request). */
	body?: string | Buffer;
	/** The Webhook Signing Secret of the ERP API credential; undefined: no credential attached. */
	secret?: string;
}

/**
 * The ERP Trigger's (version 1) webhook() in n8n-core's WebhookContext for one request, without HTTP (for the unit tests of its
 * rules): the headers and the raw body as given, no body parsing. Returns its result, what it answered itself
 * (`{}` when nothing) and the credential types it read.
 */
export async function callTrigger(request: DeliveryRequest) {
	const { secret } = request;
	const credentials = { baseUrl: 'https://erp.example.com/api/v1', apiToken: 'token', webhookSecret: secret ?? '' };
	const credential = secret === undefined ? {} : { credentialType: new ErpApi(), credentials };
	const endpoint = webhookEndpoint({ nodeType: new ErpTrigger(), typeVersion: 1, parameters: request.parameters ?? {}, ...credential });
	const reads = jest.spyOn(endpoint.credentialsHelper, 'getDecrypted');
	const headers = Object.entries({ 'content-type': 'application/json', ...request.headers });
	const message = Object.assign(new IncomingMessage(new Socket()), {
		headers: Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value])),
		rawBody: typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body,
		path: '/',
		query: {},
		params: {},
	});
	const response = new WebhookResponse();
	const result = await callWebhook(endpoint, message, response);
	return {
		result,
		answer: response.headersSent ? { status: response.statusCode, body: response.content } : {},
		credentialRequests: reads.mock.calls.map(([, , type]) => type),
	};
}

/** A delivery body as the ERP sends it. */
export function deliveryBody(overrides: IDataObject = {}): string {
	return JSON.stringify({
		event: 'invoice.paid',
		timestamp: '2026-11-22T10:15:30.000Z',
		data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
		...overrides,
	});
}
