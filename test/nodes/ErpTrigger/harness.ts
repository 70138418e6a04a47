import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import type { Delivery } from '../../../sandbox/webhooks';
import { runWebhook, type WebhookCall, type WebhookHarness } from '../../../tooling/harness';
import { useTestSandbox, waitFor, type TestSandbox } from '../../../tooling/harness/sandbox';

export const SECRET = 'whsec_trigger_51c2';

/** What the ERP got back for one delivery, and what the trigger started on each output (version 1: `confirmed` is its one output). */
export interface Answered {
	status: number;
	/** The Retry-After header (post() only). */
	retryAfter: string | null;
	body: unknown;
	call: WebhookCall;
	confirmed: IDataObject[];
	notConfirmed: IDataObject[];
}

export interface TriggerHarness {
	/** One sandbox for the file, reset before each test. */
	sandbox: TestSandbox;
	/** The ERP Trigger (version 2, All Events, unless told) in n8n-core's WebhookContext, its credential on the sandbox with SECRET; closed after the test (more than one may run). */
	start(parameters?: INodeParameters, settings?: { typeVersion?: 1 | 2; credentials?: IDataObject }): Promise<WebhookHarness>;
	/** POSTs a delivery (forged or not) to a trigger's production URL (default: the last one started); posts may run side by side. */
	post(body: IDataObject | string, headers?: Record<string, string>, to?: WebhookHarness): Promise<Answered>;
	/** The trigger's answer to the sandbox's own `count`-th delivery attempt, once `count` deliveries have ended. */
	delivered(count?: number): Promise<Answered>;
	/** The sandbox's deliveries, once there are `count` and every one has ended (delivered or given up). */
	ended(count?: number): Promise<Delivery[]>;
	/** From now on reads() counts (it starts counting with each test). */
	mark(): Promise<void>;
	/** The ERP API GET requests since the mark, as `GET /path`; with `record` (`/invoices/7`), only those of that record and its sub-paths. */
	reads(record?: string): Promise<string[]>;
}

const outputs = (data: INodeExecutionData[][] | undefined) => ({
	confirmed: (data?.[0] ?? []).map((item) => item.json),
	notConfirmed: (data?.[1] ?? []).map((item) => item.json),
});

const answered = (call: WebhookCall, retryAfter: string | null): Answered => ({ status: call.status, retryAfter, body: call.body, call, ...outputs(call.workflowData) });

/** The sandbox's real deliveries (its own signing, headers and retries) and forged ones, to an ERP Trigger over HTTP. */
export function useTriggerHarness(): TriggerHarness {
	const sandbox = useTestSandbox();
	let triggers: WebhookHarness[] = [];
	let since = 0;
	const taken = new Set<WebhookCall>();
	beforeEach(async () => {
		since = await sandbox.admin.lastRequestSeq();
	});
	afterEach(async () => {
		await Promise.all(triggers.map(async (trigger) => await trigger.close()));
		triggers = [];
	});
	const running = () => {
		const trigger = triggers.at(-1);
		if (trigger === undefined) throw new Error('start() the trigger first');
		return trigger;
	};
	const ended = async (count = 1) =>
		await waitFor(async () => {
			const deliveries = await sandbox.admin.deliveries();
			return deliveries.length === count && deliveries.every((d) => d.done) && deliveries;
		}, 30_000);
	return {
		sandbox,
		async start(parameters = {}, { typeVersion = 2, credentials = {} } = {}) {
			const trigger = await runWebhook({
				nodeType: new ErpTrigger(),
				typeVersion,
				parameters: { events: ['*'], ...parameters },
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token, webhookSecret: SECRET, ...credentials },
			});
			triggers.push(trigger);
			return trigger;
		},
		async post(body, headers = {}, to = running()) {
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			const response = await fetch(to.url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers } });
			await response.text();
			// Posts may run side by side: each takes the first call of its body no other post took.
			const call = await waitFor(() => to.calls.find((candidate) => !taken.has(candidate) && candidate.request.rawBody?.toString('utf8') === text), 30_000);
			taken.add(call);
			return answered(call, response.headers.get('retry-after'));
		},
		async delivered(count = 1) {
			const calls = await running().waitForCalls(count, 30_000);
			await waitFor(async () => (await sandbox.admin.deliveries()).filter((delivery) => delivery.done).length >= count, 30_000);
			return answered(calls[count - 1], null);
		},
		ended,
		async mark() {
			since = await sandbox.admin.lastRequestSeq();
		},
		async reads(record) {
			const requests = await sandbox.admin.requests(since);
			const ofRecord = (path: string) => record === undefined || path === record || path.startsWith(`${record}/`);
			return requests.filter(({ method, path }) => method === 'GET' && ofRecord(path)).map(({ method, path }) => `${method} ${path}`);
		},
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
