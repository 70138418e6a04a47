import { createHmac } from 'node:crypto';
import type { INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { contentDigest } from '../../../nodes/ErpTrigger/deliveryKey';
import type { ErpDelivery } from '../../../nodes/ErpTrigger/parseDelivery';
import { runWebhook, type WebhookHarness } from '../../../tooling/harness';
import { deliveryBody } from './harness';

// ERP Trigger version 1 over HTTP: what a caller gets back, from n8n (before the node) or from the node, for every
// kind of request an ERP may send, and what the node's parameters and credential make of it (the steps' own rules:
// steps.test.ts). runWebhook reads and parses the body the way n8n 2.41 does.

const SECRET = 'whsec_requests';
const CREDENTIALS = { baseUrl: 'https://erp.example.com/api/v1', apiToken: 'token-requests', webhookSecret: SECRET };
const DATA = { product_id: 3, sku: 'CHAIR-1', name: 'Office Chair', stock_total: 4, low_stock_threshold: 10 };
const DELIVERY = JSON.stringify({ event: 'product.low_stock', timestamp: '2026-11-22T10:15:30.000Z', data: DATA });
const JSON_TYPE = { 'content-type': 'application/json' };
const NOT_AN_OBJECT = 'Body is not a JSON object: send a JSON object with event, timestamp and data';
/** The item of a delivery sent without a delivery id header: its content and the digest of it as the deliveryKey. */
const item = (delivery: ErpDelivery) => ({ ...delivery, deliveryKey: contentDigest(delivery), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) });

const startTrigger = (parameters: INodeParameters, credentials: typeof CREDENTIALS | undefined = CREDENTIALS) =>
	runWebhook({ nodeType: new ErpTrigger(), typeVersion: 1, parameters, ...(credentials && { credentialType: new ErpApi(), credentials }) });

let trigger: WebhookHarness;

beforeAll(async () => {
	trigger = await startTrigger({ events: ['*'] });
});
afterAll(async () => {
	await trigger.close();
});

async function send(body: string | Buffer, headers: Record<string, string> = JSON_TYPE, to = trigger) {
	const before = to.calls.length;
	const response = await fetch(to.url, { method: 'POST', body, headers });
	const [call] = await to.waitForCalls(before + 1).then((calls) => calls.slice(before));
	return { status: response.status, body: (await response.json()) as unknown, call };
}

describe('deliveries the ERP Trigger accepts', () => {
	it.each([
		['application/json; charset=utf-8', { 'content-type': 'application/json; charset=utf-8' }],
		['text/plain', { 'content-type': 'text/plain' }],
		['text/plain; charset=utf-8', { 'content-type': 'text/plain; charset=utf-8' }],
		['a vendor JSON type', { 'content-type': 'application/vnd.erp.event+json' }],
		['application/octet-stream', { 'content-type': 'application/octet-stream' }],
		['no Content-Type', {}],
	])('answers a JSON delivery sent as %s 200 "Event received" and starts the workflow with it', async (_case, headers) => {
		const { status, body, call } = await send(Buffer.from(DELIVERY), headers);

		expect({ status, body }).toEqual({ status: 200, body: { message: 'Event received' } });
		expect(call.workflowData?.[0][0].json).toEqual(item(JSON.parse(DELIVERY)));
	});

	it('starts the workflow for a 3 MiB delivery: only n8n’s own body limit applies', async () => {
		const note = 'x'.repeat(3 * 1024 * 1024);
		const { status, call } = await send(JSON.stringify({ ...JSON.parse(DELIVERY), data: { ...DATA, note } }));

		expect(status).toBe(200);
		expect(call.workflowData?.[0][0].json.data).toEqual({ ...DATA, note });
	});

});

describe('requests the ERP Trigger refuses: they cannot be a delivery', () => {
	it.each([
		['a JSON array', `[${DELIVERY}]`, 'application/json', NOT_AN_OBJECT],
		['malformed JSON sent as text/plain', '{"event":', 'text/plain', NOT_AN_OBJECT],
		['form data', 'event=invoice.paid', 'application/x-www-form-urlencoded', NOT_AN_OBJECT],
	])('answers 400 with the reason to %s, and starts nothing', async (_case, raw, contentType, message) => {
		const { status, body, call } = await send(raw, { 'content-type': contentType });

		expect(status).toBe(400);
		expect(body).toEqual({ message });
		expect(call.workflowData).toBeUndefined();
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

// The same content re-serialised has another signature: steps.test.ts.
describe('verification over HTTP: the signature covers the exact bytes received', () => {
	let signedTrigger: WebhookHarness;

	beforeAll(async () => {
		signedTrigger = await startTrigger({ events: ['*'], verification: 'hmacSha256', signatureEncoding: 'base64', signatureHeader: 'X-Signature' });
	});
	afterAll(async () => {
		await signedTrigger.close();
	});

	const sign = (body: string | Buffer, secret = SECRET) => createHmac('sha256', secret).update(body).digest('base64');
	const post = (body: string | Buffer, signature: string) => send(body, { 'content-type': 'application/json', 'x-signature': signature }, signedTrigger);
	// Odd spacing and line ends, keys out of order, \u escapes (one a surrogate pair), a number written 1.50.
	const PRETTY = [
		'{',
		'   "data" :{"amount":1.50, "currency" : "EUR" ,"invoice_id":7,',
		'\t"customer": "M\\u00fcller & S\\u00f6hne \\u2013 \\ud83d\\ude80"},',
		'  "timestamp":"2026-11-23T10:00:00+0000",',
		'    "event":   "invoice.paid"',
		'}',
		'',
	].join('\r\n');

	it('accepts a pretty-printed, non-canonical body signed over its bytes, and starts the workflow with its content', async () => {
		const { status, call } = await post(PRETTY, sign(PRETTY));

		expect(status).toBe(200);
		expect(call.request.rawBody?.toString('utf8')).toBe(PRETTY);
		const data = { amount: 1.5, currency: 'EUR', invoice_id: 7, customer: 'Müller & Söhne – 🚀' };
		expect(call.workflowData?.[0][0].json).toEqual(item({ event: 'invoice.paid', timestamp: '2026-11-23T10:00:00+0000', data }));
	});
});

describe('what the parameters and the credential make of a delivery', () => {
	const ERP_EVENTS = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];
	const hmacHex = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('hex');
	/** A trigger of its own with these parameters (and credential: none for undefined) for one request: what it answered, started or threw. */
	async function sendTo(parameters: INodeParameters, body = deliveryBody(), headers: Record<string, string> = {}, credentials: typeof CREDENTIALS | undefined = CREDENTIALS) {
		const own = await startTrigger({ events: ['*'], ...parameters }, credentials);
		try {
			return await send(body, { ...JSON_TYPE, ...headers }, own);
		} finally {
			await own.close();
		}
	}
	const startedWith = (sent: { call: { workflowData?: Array<Array<{ json: object }>> } }) => sent.call.workflowData?.[0][0].json;

	// Output Data at Top Level: confirmForged.test.ts (the item).
	it('takes the header named in Options › Delivery ID Header before the common ones; one that is no header name fails naming the option and the fix', async () => {
		const named = await sendTo({ options: { deliveryIdHeader: ' X-Hook-Delivery ' } }, undefined, { 'x-hook-delivery': 'hook-77', 'Webhook-Id': 'msg_1' });
		const wrong = await sendTo({ options: { deliveryIdHeader: 'X-Hook-Delivery: 1' } });

		expect(startedWith(named)).toMatchObject({ deliveryKey: 'hook-77' });
		expect(wrong.call.error?.message).toBe('Options › Delivery ID Header "X-Hook-Delivery: 1" is not a header name: enter the name alone, e.g. X-Delivery-Id, without a colon, spaces or value');
	});

	// Version 2 ignores an event not selected the same way (confirmForged.test.ts); one outside the six under All
	// Events: ErpTrigger/otherErps.test.ts (future-events).
	it.each(ERP_EVENTS)('starts on %s with All Events selected, and with only that event selected; acknowledges it with 200, starting nothing, when another or none is', async (event) => {
		const body = deliveryBody({ event });
		const [all, only, other, none] = [await send(body), await sendTo({ events: [event] }, body), await sendTo({ events: ERP_EVENTS.filter((name) => name !== event) }, body), await sendTo({ events: [] }, body)];

		expect([startedWith(all), startedWith(only)]).toEqual([expect.objectContaining({ event }), expect.objectContaining({ event })]);
		const ignored = { status: 200, body: { message: `Event ${event} is not selected in this trigger: ignored` }, started: undefined };
		expect([other, none].map(({ status, body: answer, call }) => ({ status, body: answer, started: call.workflowData }))).toEqual([ignored, ignored]);
	});

	it('needs no credential when verification is off, and ignores signature headers', async () => {
		const sent = await sendTo({}, undefined, { 'x-erp-signature': 'sha256=00' }, undefined);

		expect({ status: sent.status, started: sent.call.workflowData?.length }).toEqual({ status: 200, started: 1 });
	});

	it('checks a shared secret in X-Erp-Webhook-Secret by default, or in the header the user named', async () => {
		const byDefault = await sendTo({ verification: 'sharedSecret' }, undefined, { 'X-Erp-Webhook-Secret': SECRET });
		const named = await sendTo({ verification: 'sharedSecret', sharedHeader: 'X-Hook-Secret' }, undefined, { 'x-erp-webhook-secret': SECRET });

		expect(byDefault.call.workflowData).toHaveLength(1);
		expect({ status: named.status, body: named.body }).toEqual({ status: 401, body: { message: 'Missing X-Hook-Secret header: send the secret in it' } });
	});

	it('verifies before it parses: an unsigned malformed request gets 401; a signed body that is not a delivery 400', async () => {
		const unsigned = await sendTo({ verification: 'hmacSha256' }, '[1,2]');
		const body = '{"event":"invoice.paid","data":[]}';
		const signed = await sendTo({ verification: 'hmacSha256' }, body, { 'x-erp-signature': hmacHex(body) });

		expect(unsigned.status).toBe(401);
		expect({ status: signed.status, body: signed.body }).toEqual({ status: 400, body: { message: 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}' } });
	});

	it('fails loudly when the credential holds no secret, rather than accepting an empty key', async () => {
		const body = deliveryBody();
		const sent = await sendTo({ verification: 'hmacSha256' }, body, { 'x-erp-signature': hmacHex(body, '') }, { ...CREDENTIALS, webhookSecret: '' });

		expect({ started: sent.call.workflowData, error: sent.call.error?.message }).toEqual({
			started: undefined,
			error: 'The Webhook Signing Secret of the ERP API credential is empty: enter the secret the ERP uses for its webhook, or set Verification to None',
		});
	});
});

describe('ERP Trigger webhookMethods', () => {
	// Registration is manual (the API has none): the lifecycle must neither fail activation nor pretend to register.
	const { checkExists, create, delete: remove } = new ErpTrigger().webhookMethods.default;
	const untouchable = new Proxy({}, { get: (_target, property) => { throw new Error(`the lifecycle used this.${String(property)}`); } }) as never;

	it('reports no registered webhook, registers nothing, removes nothing, and touches neither n8n nor the network', async () => {
		await expect(checkExists.call(untouchable)).resolves.toBe(false);
		await expect(create.call(untouchable)).resolves.toBe(true);
		await expect(remove.call(untouchable)).resolves.toBe(true);
	});
});
