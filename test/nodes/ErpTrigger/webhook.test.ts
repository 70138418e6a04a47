import { createHmac } from 'node:crypto';

import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { contentDigest } from '../../../nodes/ErpTrigger/deliveryKey';
import { callTrigger, deliveryBody, type DeliveryRequest } from './harness';

const SECRET = 'whsec_4b1d9e';
/** The key of deliveryBody() sent without a delivery id header: the digest of its content. */
const DIGEST = contentDigest({
	event: 'invoice.paid',
	timestamp: '2026-11-22T10:15:30.000Z',
	data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
});
const hmac = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest();

const deliver = (request: DeliveryRequest) => callTrigger({ body: deliveryBody(), ...request });

const allEvents = { events: ['*'] };
/** The event kinds of the API document, section 6. */
const ERP_EVENTS = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];
const SAME_SECRET = 'check that the ERP and the Webhook Signing Secret of the ERP API credential are the same';

describe('ERP Trigger webhook()', () => {
	describe('emit', () => {
		it('starts the workflow with one item {event, timestamp, deliveryKey, data} and answers 200 at once', async () => {
			const { result, answer } = await deliver({ parameters: { events: ['invoice.paid'] } });

			expect(result.workflowData).toEqual([
				[
					{
						json: {
							event: 'invoice.paid',
							timestamp: '2026-11-22T10:15:30.000Z',
							deliveryKey: DIGEST,
							data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
						},
					},
				],
			]);
			expect(result.webhookResponse).toEqual({ message: 'Event received' });
			expect(result.noWebhookResponse).toBeUndefined();
			expect(answer).toEqual({});
		});

		it('puts the data fields at the top level when asked, with event, timestamp and deliveryKey beside them', async () => {
			const { result } = await deliver({ parameters: { ...allEvents, options: { dataAtTopLevel: true } } });

			expect(result.workflowData?.[0][0].json).toEqual({
				event: 'invoice.paid',
				timestamp: '2026-11-22T10:15:30.000Z',
				deliveryKey: DIGEST,
				invoice_id: 7,
				amount: 119.5,
				currency: 'EUR',
			});
		});

		it('passes the timestamp on exactly as sent, in any form, and leaves it out when there is none', async () => {
			const offset = await deliver({ parameters: allEvents, body: deliveryBody({ timestamp: '2026-11-23T10:00:00+0000' }) });
			const text = await deliver({ parameters: allEvents, body: deliveryBody({ timestamp: 'last Tuesday' }) });
			const none = await deliver({ parameters: allEvents, body: deliveryBody({ timestamp: undefined }) });

			expect(offset.result.workflowData?.[0][0].json.timestamp).toBe('2026-11-23T10:00:00+0000');
			expect(text.result.workflowData?.[0][0].json.timestamp).toBe('last Tuesday');
			expect(none.result.workflowData?.[0][0].json).toEqual({
				event: 'invoice.paid',
				deliveryKey: expect.stringMatching(/^[0-9a-f]{64}$/),
				data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
			});
		});

		it('keeps the delivery’s event, timestamp and deliveryKey when data has fields of the same name', async () => {
			const body = deliveryBody({ data: { event: 'data-event', timestamp: 'data-time', deliveryKey: 'data-key', id: 1 } });
			const { result } = await deliver({
				parameters: { ...allEvents, options: { dataAtTopLevel: true } },
				body,
				headers: { 'X-Erp-Delivery': 'd-1' },
			});

			expect(result.workflowData?.[0][0].json).toEqual({
				event: 'invoice.paid',
				timestamp: '2026-11-22T10:15:30.000Z',
				deliveryKey: 'd-1',
				id: 1,
			});
		});
	});

	describe('deliveryKey', () => {
		it('is the delivery id header’s value when the ERP sends one, in the item and with data at the top level', async () => {
			const headers = { 'X-Erp-Delivery': '5b0e3c1a-0000-4000-8000-000000000001' };
			const nested = await deliver({ parameters: allEvents, headers });
			const top = await deliver({ parameters: { ...allEvents, options: { dataAtTopLevel: true } }, headers });

			expect(nested.result.workflowData?.[0][0].json.deliveryKey).toBe('5b0e3c1a-0000-4000-8000-000000000001');
			expect(top.result.workflowData?.[0][0].json.deliveryKey).toBe('5b0e3c1a-0000-4000-8000-000000000001');
		});

		it('takes the header named in Options › Delivery ID Header before the common ones', async () => {
			const { result } = await deliver({
				parameters: { ...allEvents, options: { deliveryIdHeader: ' X-Hook-Delivery ' } },
				headers: { 'x-hook-delivery': 'hook-77', 'Webhook-Id': 'msg_1' },
			});

			expect(result.workflowData?.[0][0].json.deliveryKey).toBe('hook-77');
		});

		it('fails naming the option and the fix when Delivery ID Header is not a header name', async () => {
			const request = { parameters: { ...allEvents, options: { deliveryIdHeader: 'X-Hook-Delivery: 1' } } };

			await expect(deliver(request)).rejects.toThrow(
				'Options › Delivery ID Header "X-Hook-Delivery: 1" is not a header name: enter the name alone, e.g. X-Delivery-Id, without a colon, spaces or value',
			);
		});
	});

	describe('filter', () => {
		it('acknowledges an event that is not selected with 200 and starts nothing', async () => {
			const { result, answer } = await deliver({ parameters: { events: ['contact.created', 'employee.hired'] } });

			expect(result.workflowData).toBeUndefined();
			expect(result.webhookResponse).toEqual({ message: 'Event invoice.paid is not selected in this trigger: ignored' });
			expect(answer).toEqual({});
		});

		it('starts nothing when no event is selected', async () => {
			const { result } = await deliver({ parameters: { events: [] } });

			expect(result.workflowData).toBeUndefined();
		});

		it('starts on an event name the API document does not list when All Events is selected', async () => {
			const { result } = await deliver({ parameters: allEvents, body: deliveryBody({ event: 'invoice.refunded' }) });

			expect(result.webhookResponse).toEqual({ message: 'Event received' });
			expect(result.workflowData?.[0][0].json.event).toBe('invoice.refunded');
		});

		it('acknowledges an unlisted event name with 200 and starts nothing when only listed events are selected', async () => {
			const { result, answer } = await deliver({
				parameters: { events: ['invoice.paid'] },
				body: deliveryBody({ event: 'invoice.refunded' }),
			});

			expect(result).toEqual({ webhookResponse: { message: 'Event invoice.refunded is not selected in this trigger: ignored' } });
			expect(answer).toEqual({});
		});

		it.each(ERP_EVENTS)('starts on %s with All Events selected, and with only that event selected', async (event) => {
			const body = deliveryBody({ event });
			const all = await deliver({ parameters: allEvents, body });
			const only = await deliver({ parameters: { events: [event] }, body });

			expect(all.result.workflowData?.[0][0].json.event).toBe(event);
			expect(only.result.workflowData?.[0][0].json.event).toBe(event);
		});
	});

	describe('validate', () => {
		const notAnObject = 'Body is not a JSON object: send a JSON object with event, timestamp and data';
		const cases: Array<[string, DeliveryRequest, string]> = [
			['no body (multipart)', { headers: { 'content-type': 'multipart/form-data' }, body: undefined }, notAnObject],
			['empty body', { body: '' }, 'Body is empty: send a JSON object with event, timestamp and data'],
			['malformed JSON', { body: '{"event":' }, notAnObject],
			['JSON array', { body: `[${deliveryBody()}]` }, notAnObject],
			['missing event', { body: deliveryBody({ event: undefined }) }, 'Field "event" is missing: name the event, e.g. "invoice.paid"'],
			['empty event', { body: deliveryBody({ event: '' }) }, 'Field "event" must be the event\'s name, a non-empty string such as "invoice.paid"'],
			['missing data', { body: deliveryBody({ data: undefined }) }, 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}'],
		];

		it.each(cases)('answers 400 to %s and starts nothing', async (_case, request, message) => {
			const { result, answer } = await deliver({ parameters: allEvents, ...request });

			expect(answer).toEqual({ status: 400, body: { message } });
			expect(result).toEqual({ noWebhookResponse: true });
		});

		it.each([
			['text/plain', { 'content-type': 'text/plain' }],
			['no Content-Type', { 'content-type': '' }],
			['a vendor JSON type', { 'content-type': 'application/vnd.erp+json' }],
		])('starts the workflow for a JSON delivery sent as %s', async (_case, headers) => {
			const { result } = await deliver({ parameters: allEvents, headers });

			expect(result.workflowData?.[0][0].json.event).toBe('invoice.paid');
		});

		it('starts the workflow for a delivery over 1 MiB', async () => {
			const note = 'x'.repeat(2 * 1024 * 1024);
			const { result } = await deliver({ parameters: allEvents, body: deliveryBody({ data: { note } }) });

			expect(result.workflowData?.[0][0].json.data).toEqual({ note });
		});
	});

	describe('verify', () => {
		const hmacParameters = { ...allEvents, verification: 'hmacSha256' };

		it('does not ask for the credential when verification is off, and ignores signature headers', async () => {
			const { result, credentialRequests } = await deliver({
				parameters: allEvents,
				headers: { 'x-erp-signature': 'sha256=00' },
			});

			expect(credentialRequests).toEqual([]);
			expect(result.workflowData).toHaveLength(1);
		});

		it('accepts the ERP’s signature: X-Erp-Signature: sha256=<hex>', async () => {
			const body = deliveryBody();
			const { result, credentialRequests } = await deliver({
				parameters: hmacParameters,
				body,
				secret: SECRET,
				headers: { 'X-Erp-Signature': `sha256=${hmac(body).toString('hex')}` },
			});

			expect(credentialRequests).toEqual(['erpApi']);
			expect(result.workflowData).toHaveLength(1);
		});

		it('accepts a base64 signature in a header the user named', async () => {
			const body = deliveryBody();
			const { result } = await deliver({
				parameters: { ...hmacParameters, signatureHeader: 'X-Signature', signatureEncoding: 'base64' },
				body,
				secret: SECRET,
				headers: { 'x-signature': hmac(body).toString('base64') },
			});

			expect(result.workflowData).toHaveLength(1);
		});

		const signature = (body: string, secret?: string) => `sha256=${hmac(body, secret).toString('hex')}`;
		const refusals: Array<[string, Record<string, string>, string]> = [
			['no signature header', {}, 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret'],
			['an empty signature header', { 'x-erp-signature': '' }, 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret'],
			[
				'a signature made with another secret',
				{ 'x-erp-signature': signature(deliveryBody(), 'wrong') },
				`X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`,
			],
			[
				'a signature of another body',
				{ 'x-erp-signature': signature(deliveryBody({ event: 'contact.created' })) },
				`X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`,
			],
			[
				'a base64 signature where hex is set',
				{ 'x-erp-signature': hmac(deliveryBody()).toString('base64') },
				`X-Erp-Signature is not a valid signature of the body: ${SAME_SECRET}`,
			],
			[
				'the signature in another header',
				{ 'x-signature': signature(deliveryBody()) },
				'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret',
			],
		];

		it.each(refusals)('answers 401 to %s and starts nothing', async (_case, headers, message) => {
			const { result, answer } = await deliver({ parameters: hmacParameters, secret: SECRET, headers });

			expect(answer).toEqual({ status: 401, body: { message } });
			expect(result).toEqual({ noWebhookResponse: true });
		});

		it('checks a shared secret in the header the user named', async () => {
			const parameters = { ...allEvents, verification: 'sharedSecret', sharedHeader: 'X-Hook-Secret' };
			const right = await deliver({ parameters, secret: SECRET, headers: { 'x-hook-secret': SECRET } });
			const wrong = await deliver({ parameters, secret: SECRET, headers: { 'x-hook-secret': `${SECRET}x` } });
			const missing = await deliver({ parameters, secret: SECRET, headers: { 'x-erp-webhook-secret': SECRET } });

			expect(right.result.workflowData).toHaveLength(1);
			expect(wrong.answer).toEqual({ status: 401, body: { message: `X-Hook-Secret does not match the shared secret: ${SAME_SECRET}` } });
			expect(missing.answer).toEqual({ status: 401, body: { message: 'Missing X-Hook-Secret header: send the secret in it' } });
		});

		it('uses X-Erp-Webhook-Secret for a shared secret by default', async () => {
			const parameters = { ...allEvents, verification: 'sharedSecret' };
			const { result } = await deliver({ parameters, secret: SECRET, headers: { 'X-Erp-Webhook-Secret': SECRET } });

			expect(result.workflowData).toHaveLength(1);
		});

		it('verifies before it validates: an unsigned malformed request gets 401, not 400', async () => {
			const { answer } = await deliver({ parameters: hmacParameters, secret: SECRET, body: '[1,2]' });

			expect(answer.status).toBe(401);
		});

		it('verifies the bytes it validates: a signed body that is not a delivery gets 400', async () => {
			const body = '{"event":"invoice.paid","data":[]}';
			const { answer } = await deliver({
				parameters: hmacParameters,
				secret: SECRET,
				body,
				headers: { 'x-erp-signature': hmac(body).toString('hex') },
			});

			expect(answer).toEqual({ status: 400, body: { message: 'Field "data" must be a JSON object with the event\'s content, e.g. {"invoice_id": 7}' } });
		});

		it('fails loudly when the credential holds no secret, rather than accepting an empty key', async () => {
			const body = deliveryBody();
			const request = {
				parameters: hmacParameters,
				body,
				secret: '',
				headers: { 'x-erp-signature': createHmac('sha256', '').update(body).digest('hex') },
			};

			await expect(deliver(request)).rejects.toThrow(
				'The Webhook Signing Secret of the ERP API credential is empty: enter the secret the ERP uses for its webhook, or set Verification to None',
			);
		});
	});
});

describe('ERP Trigger webhookMethods', () => {
	// Registration is manual (the API has none): the lifecycle must neither fail activation nor pretend to register.
	const { checkExists, create, delete: remove } = new ErpTrigger().webhookMethods.default;
	const untouchable = new Proxy(
		{},
		{
			get: (_target, property) => {
				throw new Error(`the lifecycle used this.${String(property)}`);
			},
		},
	) as never;

	it('reports no registered webhook, registers nothing, removes nothing, and touches neither n8n nor the network', async () => {
		await expect(checkExists.call(untouchable)).resolves.toBe(false);
		await expect(create.call(untouchable)).resolves.toBe(true);
		await expect(remove.call(untouchable)).resolves.toBe(true);
	});
});
