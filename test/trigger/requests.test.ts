import { createHmac } from 'node:crypto';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../nodes/ErpTrigger/ErpTrigger.node';
import { runWebhook, type WebhookHarness } from '../support/n8n';

// What a caller gets back over HTTP, from n8n (before the node) or from the node, for requests that are not
// clean deliveries. runWebhook reads and parses the body the way n8n 2.41 does.

const SECRET = 'whsec_requests';
const CREDENTIALS = { baseUrl: 'https://erp.example.com/api/v1', apiToken: 'token-requests', webhookSecret: SECRET };
const DELIVERY = JSON.stringify({
	event: 'product.low_stock',
	timestamp: '2026-11-22T10:15:30.000Z',
	data: { product_id: 3, sku: 'CHAIR-1', name: 'Office Chair', stock_total: 4, low_stock_threshold: 10 },
});

let trigger: WebhookHarness;

beforeAll(async () => {
	trigger = await runWebhook({
		nodeType: new ErpTrigger(),
		parameters: { events: ['*'] },
		credentialType: new ErpApi(),
		credentials: CREDENTIALS,
	});
});
afterAll(async () => {
	await trigger.close();
});

async function send(body: string | Buffer, headers: Record<string, string> = { 'content-type': 'application/json' }) {
	const before = trigger.calls.length;
	const response = await fetch(trigger.url, { method: 'POST', body, headers });
	const [call] = await trigger.waitForCalls(before + 1).then((calls) => calls.slice(before));
	return { status: response.status, body: (await response.json()) as unknown, call };
}

describe('requests that reach the ERP Trigger', () => {
	it('answers a clean delivery 200 and starts the workflow', async () => {
		const { status, body, call } = await send(DELIVERY, { 'content-type': 'application/json; charset=utf-8' });

		expect(status).toBe(200);
		expect(body).toEqual({ message: 'Event received' });
		expect(call.workflowData?.[0][0].json).toEqual(JSON.parse(DELIVERY));
	});

	it.each([
		['a JSON array', `[${DELIVERY}]`, 'application/json', 'Body must be a JSON object with event, timestamp and data'],
		['an empty body', '', 'application/json', 'Body is empty: send a JSON object with event, timestamp and data'],
		['JSON sent as text/plain', DELIVERY, 'text/plain', 'Content-Type must be application/json'],
		['malformed JSON sent as text/plain', '{"event":', 'text/plain', 'Content-Type must be application/json'],
		['form data', 'event=invoice.paid', 'application/x-www-form-urlencoded', 'Content-Type must be application/json'],
		[
			'an unknown event',
			DELIVERY.replace('product.low_stock', 'product.discontinued'),
			'application/json',
			'Unknown event "product.discontinued" in field "event": use one of contact.created, contact.updated, invoice.paid, invoice.overdue, product.low_stock, employee.hired',
		],
		[
			'a body over 1 MiB',
			DELIVERY.replace('"Office Chair"', `"${'x'.repeat(1024 * 1024)}"`),
			'application/json',
			'Body is larger than 1048576 bytes: send at most 1 MiB',
		],
	])('answers 400 with the reason to %s, and starts nothing', async (_case, raw, contentType, message) => {
		const { status, body, call } = await send(raw, { 'content-type': contentType });

		expect(status).toBe(400);
		expect(body).toEqual({ message });
		expect(call.workflowData).toBeUndefined();
	});

	it('answers 400 to a request without a Content-Type', async () => {
		const { status, body } = await send(Buffer.from(DELIVERY), {});

		expect(status).toBe(400);
		expect(body).toEqual({ message: 'Content-Type must be application/json' });
	});
});

describe('requests n8n answers before the ERP Trigger sees them', () => {
	it('answers malformed JSON sent as application/json 422: n8n fails to parse it', async () => {
		const { status, body, call } = await send('{"event": "invoice.paid",');

		expect(status).toBe(422);
		expect(body).toMatchObject({ code: 422, message: 'Failed to parse request body' });
		expect(call.workflowData).toBeUndefined();
	});

	it('answers another method 404', async () => {
		const response = await fetch(trigger.url);

		expect(response.status).toBe(404);
		expect(await response.json()).toMatchObject({
			message: 'This webhook is not registered for GET requests. Did you mean to make a POST request?',
		});
	});
});

describe('verification over HTTP', () => {
	let signedTrigger: WebhookHarness;

	beforeAll(async () => {
		signedTrigger = await runWebhook({
			nodeType: new ErpTrigger(),
			parameters: {
				events: ['*'],
				verification: 'hmacSha256',
				signatureEncoding: 'base64',
				signatureHeader: 'X-Signature',
			},
			credentialType: new ErpApi(),
			credentials: CREDENTIALS,
		});
	});
	afterAll(async () => {
		await signedTrigger.close();
	});

	const post = (headers: Record<string, string>) =>
		fetch(signedTrigger.url, {
			method: 'POST',
			body: DELIVERY,
			headers: { 'content-type': 'application/json', ...headers },
		});

	it('verifies the raw bytes n8n received against the secret in the credential', async () => {
		const signature = createHmac('sha256', SECRET).update(DELIVERY).digest('base64');

		const right = await post({ 'x-signature': `sha256=${signature}` });
		const wrong = await post({ 'x-signature': createHmac('sha256', 'other').update(DELIVERY).digest('base64') });

		expect(right.status).toBe(200);
		expect(wrong.status).toBe(401);
		expect(await wrong.json()).toEqual({ message: 'X-Signature is not a valid signature of the body: check that the ERP and the Webhook Signing Secret of the ERP API credential are the same' });
		expect(signedTrigger.calls.map((call) => call.workflowData !== undefined)).toEqual([true, false]);
	});
});
