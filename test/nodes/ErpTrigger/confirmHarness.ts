import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { runWebhook, type WebhookCall, type WebhookHarness } from '../../../tooling/harness';
import { useTestSandbox, waitFor, type TestSandbox } from '../../../tooling/harness/sandbox';

export const SECRET = 'whsec_confirm_51c2';

/** What the ERP got back for one delivery, and what the trigger started: the items on Confirmed and on Not Confirmed. */
export interface Answered {
	status: number;
	/** The Retry-After header (post() only). */
	retryAfter: string | null;
	body: unknown;
	call: WebhookCall;
	confirmed: IDataObject[];
	notConfirmed: IDataObject[];
}

export interface ConfirmHarness {
	/** One sandbox for the file, reset before each test. */
	sandbox: TestSandbox;
	/** The ERP Trigger version 2 (n8n's default for a new node) in n8n-core's WebhookContext, closed after the test. */
	start(parameters?: INodeParameters, credentials?: IDataObject): Promise<WebhookHarness>;
	/** POSTs a delivery (forged or not) to the trigger's production URL. */
	post(body: IDataObject | string, headers?: Record<string, string>): Promise<Answered>;
	/** The trigger's answer to the sandbox's own `count`-th delivery (a real one, signed when the subscription has a secret). */
	delivered(count?: number): Promise<Answered>;
	/** From now on reads() counts (it starts counting with each test). */
	mark(): Promise<void>;
	/** The ERP API GET requests since the mark, as `GET /path`. */
	reads(): Promise<string[]>;
}

const outputs = (data: INodeExecutionData[][] | undefined) => ({
	confirmed: (data?.[0] ?? []).map((item) => item.json),
	notConfirmed: (data?.[1] ?? []).map((item) => item.json),
});

/** The answer a call recorded, as the caller saw it. */
function answered(call: WebhookCall, retryAfter: string | null): Answered {
	return { status: call.status, retryAfter, body: call.body, call, ...outputs(call.workflowData) };
}

/** Deliveries to an ERP Trigger version 2 whose ERP API credential points at the file's sandbox. */
export function useConfirmHarness(): ConfirmHarness {
	const sandbox = useTestSandbox();
	let trigger: WebhookHarness | undefined;
	let since = 0;
	const taken = new Set<WebhookCall>();
	beforeEach(async () => {
		since = await sandbox.admin.lastRequestSeq();
	});
	afterEach(async () => {
		await trigger?.close();
		trigger = undefined;
	});
	const running = () => {
		if (trigger === undefined) throw new Error('start() the trigger first');
		return trigger;
	};
	return {
		sandbox,
		async start(parameters = {}, credentials = {}) {
			trigger = await runWebhook({
				nodeType: new ErpTrigger(),
				parameters: { events: ['*'], ...parameters },
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token, webhookSecret: SECRET, ...credentials },
			});
			return trigger;
		},
		async post(body, headers = {}) {
			const to = running();
			const text = typeof body === 'string' ? body : JSON.stringify(body);
			const response = await fetch(to.url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers } });
			await response.text();
			// Posts may run side by side: each takes the first call of its body no other post took.
			const call = await waitFor(() => to.calls.find((candidate) => !taken.has(candidate) && candidate.request.rawBody?.toString('utf8') === text), 30_000);
			taken.add(call);
			return answered(call, response.headers.get('retry-after'));
		},
		async delivered(count = 1) {
			const to = running();
			const calls = await to.waitForCalls(count, 30_000);
			await waitFor(async () => (await sandbox.admin.deliveries()).filter((delivery) => delivery.done).length >= count, 30_000);
			return answered(calls[count - 1], null);
		},
		async mark() {
			since = await sandbox.admin.lastRequestSeq();
		},
		async reads() {
			const requests = await sandbox.admin.requests(since);
			return requests.filter(({ method }) => method === 'GET').map(({ method, path }) => `${method} ${path}`);
		},
	};
}
