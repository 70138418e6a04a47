import { createHmac } from 'node:crypto';

import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';
import { callTrigger, deliveryBody, type DeliveryRequest } from './harness';

// ERP Trigger version 1's webhook() in n8n-core's WebhookContext, without HTTP: what it answers and starts, from the
// node's parameters and credential (the steps' own rules: steps.test.ts).

const SECRET = 'whsec_4b1d9e';
const DATA = { invoice_id: 7, amount: 119.5, currency: 'EUR' };
const hmac = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body).digest();
const deliver = (request: DeliveryRequest) => callTrigger({ body: deliveryBody(), ...request });
const allEvents = { events: ['*'] };
const ERP_EVENTS = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];

describe('ERP Trigger webhook()', () => {
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
		// Version 2 ignores an event not selected the same way (confirmForged.test.ts); one outside the six under All
		// Events: ErpTrigger/otherErps.test.ts (future-events).
		it.each(ERP_EVENTS)('starts on %s with All Events selected, and with only that event selected; acknowledges it with 200, starting nothing, when another or none is', async (event) => {
			const all = await deliver({ parameters: allEvents, body: deliveryBody({ event }) });
			const only = await deliver({ parameters: { events: [event] }, body: deliveryBody({ event }) });
			const other = await deliver({ parameters: { events: ERP_EVENTS.filter((name) => name !== event) }, body: deliveryBody({ event }) });
			const none = await deliver({ parameters: { events: [] }, body: deliveryBody({ event }) });

			expect([all.result.workflowData?.[0][0].json.event, only.result.workflowData?.[0][0].json.event]).toEqual([event, event]);
			expect([other.result, other.answer, none.result.workflowData]).toEqual([{ webhookResponse: { message: `Event ${event} is not selected in this trigger: ignored` } }, {}, undefined]);
		});
	});

	describe('verify', () => {
		const hmacParameters = { ...allEvents, verification: 'hmacSha256' };

		it('does not ask for the credential when verification is off, and ignores signature headers', async () => {
			const { result, credentialRequests } = await deliver({ parameters: allEvents, headers: { 'x-erp-signature': 'sha256=00' } });

			expect(credentialRequests).toEqual([]);
			expect(result.workflowData).toHaveLength(1);
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
