import { createHmac } from 'node:crypto';

import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { contentDigest } from '../../../nodes/ErpTrigger/deliveryKey';
import { callTrigger, deliveryBody, type DeliveryRequest } from './harness';

// ERP Trigger version 1's webhook() in n8n-core's WebhookContext, without HTTP: what it answers and starts, from the
// node's parameters and credential (the steps' own rules: steps.test.ts).

const SECRET = 'whsec_4b1d9e';
const DATA = { invoice_id: 7, amount: 119.5, currency: 'EUR' };
/** The key of deliveryBody() sent without a delivery id header: the digest of its content. */
const DIGEST = contentDigest({ event: 'invoice.paid', timestamp: '2026-11-22T10:15:30.000Z', data: DATA });
const hmac = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest();
const deliver = (request: DeliveryRequest) => callTrigger({ body: deliveryBody(), ...request });
const allEvents = { events: ['*'] };
const ERP_EVENTS = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];

describe('ERP Trigger webhook()', () => {
	it('starts the workflow with one item {event, timestamp, deliveryKey, data} and leaves the answer "Event received" to n8n', async () => {
		const { result, answer } = await deliver({ parameters: { events: ['invoice.paid'] } });

		expect(result).toEqual({
			webhookResponse: { message: 'Event received' },
			workflowData: [[{ json: { event: 'invoice.paid', timestamp: '2026-11-22T10:15:30.000Z', deliveryKey: DIGEST, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/), data: DATA } }]],
		});
		expect(answer).toEqual({});
	});

	it('puts the data at the top level when asked, the delivery’s event, timestamp, deliveryKey and eventKey winning a name clash', async () => {
		const body = deliveryBody({ data: { event: 'data-event', timestamp: 'data-time', deliveryKey: 'data-key', eventKey: 'data-event-key', id: 1 } });
		const top = await deliver({ parameters: { ...allEvents, options: { dataAtTopLevel: true } }, body, headers: { 'X-Erp-Delivery': 'd-1' } });
		const untimed = await deliver({ parameters: allEvents, body: deliveryBody({ timestamp: undefined }) });

		expect(top.result.workflowData?.[0][0].json).toEqual({ event: 'invoice.paid', timestamp: '2026-11-22T10:15:30.000Z', deliveryKey: 'd-1', eventKey: expect.stringMatching(/^[0-9a-f]{64}$/), id: 1 });
		expect(untimed.result.workflowData?.[0][0].json).toEqual({ event: 'invoice.paid', deliveryKey: expect.stringMatching(/^[0-9a-f]{64}$/), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/), data: DATA });
	});

	it('takes the header named in Options › Delivery ID Header before the common ones', async () => {
		const { result } = await deliver({ parameters: { ...allEvents, options: { deliveryIdHeader: ' X-Hook-Delivery ' } }, headers: { 'x-hook-delivery': 'hook-77', 'Webhook-Id': 'msg_1' } });

		expect(result.workflowData?.[0][0].json.deliveryKey).toBe('hook-77');
	});

	it('fails naming the option and the fix when Delivery ID Header is not a header name', async () => {
		await expect(deliver({ parameters: { ...allEvents, options: { deliveryIdHeader: 'X-Hook-Delivery: 1' } } })).rejects.toThrow(
			'Options › Delivery ID Header "X-Hook-Delivery: 1" is not a header name: enter the name alone, e.g. X-Delivery-Id, without a colon, spaces or value',
		);
	});

	describe('filter', () => {
		it('acknowledges an event not selected (one the document lists or not) with 200 and starts nothing', async () => {
			const listed = await deliver({ parameters: { events: ['contact.created', 'employee.hired'] } });
			const unlisted = await deliver({ parameters: { events: ['invoice.paid'] }, body: deliveryBody({ event: 'invoice.refunded' }) });
			const none = await deliver({ parameters: { events: [] } });

			expect(listed.result).toEqual({ webhookResponse: { message: 'Event invoice.paid is not selected in this trigger: ignored' } });
			expect(unlisted.result).toEqual({ webhookResponse: { message: 'Event invoice.refunded is not selected in this trigger: ignored' } });
			expect([listed.answer, unlisted.answer, none.result.workflowData]).toEqual([{}, {}, undefined]);
		});

		it('starts on an event name the API document does not list when All Events is selected', async () => {
			const { result } = await deliver({ parameters: allEvents, body: deliveryBody({ event: 'invoice.refunded' }) });

			expect(result.webhookResponse).toEqual({ message: 'Event received' });
			expect(result.workflowData?.[0][0].json.event).toBe('invoice.refunded');
		});

		it.each(ERP_EVENTS)('starts on %s with All Events selected, and with only that event selected', async (event) => {
			const all = await deliver({ parameters: allEvents, body: deliveryBody({ event }) });
			const only = await deliver({ parameters: { events: [event] }, body: deliveryBody({ event }) });

			expect([all.result.workflowData?.[0][0].json.event, only.result.workflowData?.[0][0].json.event]).toEqual([event, event]);
		});
	});

	describe('refusals: answered by the node itself, nothing started', () => {
		it.each([
			['an empty body', '', 'Body is empty: send a JSON object with event, timestamp and data'],
			['data that is no object', deliveryBody({ data: undefined }), 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}'],
		])('400 to %s', async (_case, body, message) => {
			const { result, answer } = await deliver({ parameters: allEvents, body });

			expect(answer).toEqual({ status: 400, body: { message } });
			expect(result).toEqual({ noWebhookResponse: true });
		});

		it('401 to a delivery whose signature does not verify', async () => {
			const { result, answer } = await deliver({ parameters: { ...allEvents, verification: 'hmacSha256' }, secret: SECRET, headers: { 'x-erp-signature': hmac(deliveryBody(), 'wrong').toString('hex') } });

			expect(answer).toEqual({ status: 401, body: { message: 'X-Erp-Signature is not a valid signature of the body: check that the ERP and the Webhook Signing Secret of the ERP API credential are the same' } });
			expect(result).toEqual({ noWebhookResponse: true });
		});
	});

	describe('verify', () => {
		const hmacParameters = { ...allEvents, verification: 'hmacSha256' };

		it('does not ask for the credential when verification is off, and ignores signature headers', async () => {
			const { result, credentialRequests } = await deliver({ parameters: allEvents, headers: { 'x-erp-signature': 'sha256=00' } });

			expect(credentialRequests).toEqual([]);
			expect(result.workflowData).toHaveLength(1);
		});

		it('accepts the ERP’s signature (X-Erp-Signature: sha256=<hex>) with the credential’s secret, and base64 in a header the user named', async () => {
			const ours = await deliver({ parameters: hmacParameters, secret: SECRET, headers: { 'X-Erp-Signature': `sha256=${hmac(deliveryBody()).toString('hex')}` } });
			const named = await deliver({
				parameters: { ...hmacParameters, signatureHeader: 'X-Signature', signatureEncoding: 'base64' },
				secret: SECRET,
				headers: { 'x-signature': hmac(deliveryBody()).toString('base64') },
			});

			expect(ours.credentialRequests).toEqual(['erpApi']);
			expect([ours.result.workflowData, named.result.workflowData].map((data) => data?.length)).toEqual([1, 1]);
		});

		it('checks a shared secret in X-Erp-Webhook-Secret by default, or in the header the user named', async () => {
			const byDefault = await deliver({ parameters: { ...allEvents, verification: 'sharedSecret' }, secret: SECRET, headers: { 'X-Erp-Webhook-Secret': SECRET } });
			const named = await deliver({ parameters: { ...allEvents, verification: 'sharedSecret', sharedHeader: 'X-Hook-Secret' }, secret: SECRET, headers: { 'x-erp-webhook-secret': SECRET } });

			expect(byDefault.result.workflowData).toHaveLength(1);
			expect(named.answer).toEqual({ status: 401, body: { message: 'Missing X-Hook-Secret header: send the secret in it' } });
		});

		it('verifies before it parses: an unsigned malformed request gets 401; a signed body that is not a delivery 400', async () => {
			const unsigned = await deliver({ parameters: hmacParameters, secret: SECRET, body: '[1,2]' });
			const body = '{"event":"invoice.paid","data":[]}';
			const signed = await deliver({ parameters: hmacParameters, secret: SECRET, body, headers: { 'x-erp-signature': hmac(body).toString('hex') } });

			expect(unsigned.answer.status).toBe(401);
			expect(signed.answer).toEqual({ status: 400, body: { message: 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}' } });
		});

		it('fails loudly when the credential holds no secret, rather than accepting an empty key', async () => {
			const body = deliveryBody();
			const request = { parameters: hmacParameters, body, secret: '', headers: { 'x-erp-signature': createHmac('sha256', '').update(body).digest('hex') } };

			await expect(deliver(request)).rejects.toThrow(
				'The Webhook Signing Secret of the ERP API credential is empty: enter the secret the ERP uses for its webhook, or set Verification to None',
			);
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
