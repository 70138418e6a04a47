import { createHmac } from 'node:crypto';
import axios from 'axios';

import { waitFor, useTestSandbox, type VariantName } from '../../tooling/harness/sandbox';
import { createContact, createEmployee, createInvoice, createProduct, daysFromToday, ISO_MS, todayUtc } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

const sandbox = useTestSandbox();
const receiver = useReceiver();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Waits until `count` deliveries arrived and returns their bodies. */
const arrived = (count: number) => waitFor(() => receiver.received.length >= count && receiver.received.map((r) => r.body));

describe('delivery', () => {
	it('POSTs {event, timestamp, data} with the documented headers and a verifiable signature', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_test' });
		const contact = await createContact(sandbox.api);
		await arrived(1);
		const [delivery] = receiver.received;
		expect(delivery.headers['content-type']).toBe('application/json');
		expect(delivery.headers['user-agent']).toBe('erp-webhooks/1');
		expect(delivery.headers['x-erp-event']).toBe('contact.created');
		expect(delivery.headers['x-erp-delivery']).toMatch(UUID);
		const expected = `sha256=${createHmac('sha256', 'whsec_test').update(delivery.raw).digest('hex')}`;
		expect(delivery.headers['x-erp-signature']).toBe(expected);
		expect(delivery.body).toEqual({ event: 'contact.created', timestamp: expect.stringMatching(ISO_MS), data: contact });
	});

	it('sends no signature without a secret', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url });
		await createContact(sandbox.api);
		await arrived(1);
		expect(receiver.received[0].headers['x-erp-signature']).toBeUndefined();
	});

	it('delivers only the subscribed events', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, events: ['employee.hired'] });
		await createContact(sandbox.api);
		await createEmployee(sandbox.api);
		await arrived(1);
		expect(receiver.received.map((r) => r.body.event)).toEqual(['employee.hired']);
		expect(await sandbox.admin.events()).toHaveLength(2);
	});

	it('stops after the subscription is removed', async () => {
		const subscription = await sandbox.admin.addWebhook({ url: receiver.url, secret: 's3cret' });
		expect(await sandbox.admin.webhooks()).toEqual([{ id: subscription.id, url: receiver.url, signed: true, events: null, createdAt: expect.stringMatching(ISO_MS) }]);
		expect(await sandbox.admin.removeWebhook(subscription.id)).toEqual({ id: subscription.id, deleted: true });
		await createContact(sandbox.api);
		expect(await sandbox.admin.deliveries()).toEqual([]);
		const missing = await axios.delete(`${sandbox.url}/__sandbox/webhooks/${subscription.id}`, { validateStatus: () => true });
		expect(missing.status).toBe(404);
	});

	it('refuses a subscription without a valid URL or with unknown events', async () => {
		const post = (body: object) => axios.post(`${sandbox.url}/__sandbox/webhooks`, body, { validateStatus: () => true });
		expect((await post({ url: 'ftp://example.com' })).status).toBe(422);
		expect((await post({ url: receiver.url, events: ['invoice.created'] })).status).toBe(422);
	});
});

describe('retries', () => {
	it('retries a non-2xx answer with the same delivery id and body until it succeeds', async () => {
		receiver.answerWith([500, 503]);
		await sandbox.admin.addWebhook({ url: receiver.url, secret: 'k' });
		const emitted = await sandbox.admin.emit('employee.hired');
		await arrived(3);
		const ids = receiver.received.map((r) => r.headers['x-erp-delivery']);
		expect(new Set(ids)).toEqual(new Set(emitted.deliveryIds));
		expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1);
		const [delivery] = await waitFor(async () => {
			const all = await sandbox.admin.deliveries();
			return all[0]?.done && all;
		});
		expect(delivery).toMatchObject({ id: emitted.deliveryIds[0], event: 'employee.hired', url: receiver.url, delivered: true, done: true });
		expect(delivery.attempts.map((a) => a.status)).toEqual([500, 503, 200]);
		expect(delivery.body).toEqual(receiver.received[0].body);
	});

	it('gives up after 3 retries (4 attempts)', async () => {
		receiver.answerWith([500, 500, 500, 500, 500]);
		await sandbox.admin.addWebhook({ url: receiver.url });
		await sandbox.admin.emit('contact.created');
		const [delivery] = await waitFor(async () => {
			const all = await sandbox.admin.deliveries();
			return all[0]?.done && all;
		});
		expect(delivery.delivered).toBe(false);
		expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500]);
		expect(receiver.received).toHaveLength(4);
	});

	it('retries network errors', async () => {
		const gone = await startReceiver();
		await gone.close();
		await sandbox.admin.addWebhook({ url: gone.url });
		await sandbox.admin.emit('contact.created');
		const [delivery] = await waitFor(async () => {
			const all = await sandbox.admin.deliveries();
			return all[0]?.done && all;
		});
		expect(delivery.delivered).toBe(false);
		expect(delivery.attempts).toHaveLength(4);
		for (const attempt of delivery.attempts) {
			expect(attempt.status).toBeUndefined();
			expect(attempt.error).toContain('ECONNREFUSED');
		}
	});
});

describe('each event fired by its real cause', () => {
	beforeEach(() => sandbox.admin.addWebhook({ url: receiver.url }));

	it('contact.updated: the full contact plus changed_fields', async () => {
		const contact = await createContact(sandbox.api);
		const updated = (await sandbox.api.put(`/contacts/${contact.id}`, { email: 'new@example.com', company: contact.company })).data.data;
		const bodies = await arrived(2);
		expect(bodies[1]).toEqual({ event: 'contact.updated', timestamp: expect.stringMatching(ISO_MS), data: { ...updated, changed_fields: ['email'] } });
	});

	it('contact.updated is not sent when nothing changed', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.api.put(`/contacts/${contact.id}`, { first_name: contact.first_name });
		await arrived(1);
		expect((await sandbox.admin.events()).map((e) => e.event)).toEqual(['contact.created']);
	});

	it('invoice.paid: invoice_id, amount, currency, number, contact_id, paid_at', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { currency: 'GBP' });
		const paid = (await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data;
		const bodies = await arrived(2);
		expect(bodies[1]).toEqual({
			event: 'invoice.paid',
			timestamp: expect.stringMatching(ISO_MS),
			data: { invoice_id: invoice.id, amount: 238, currency: 'GBP', number: invoice.number, contact_id: contact.id, paid_at: paid.paid_at },
		});
	});

	it('invoice.overdue: sent by the sweep with days_overdue', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-3) });
		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		await sandbox.admin.sweep(todayUtc());
		const bodies = await arrived(2);
		expect(bodies[1]).toEqual({
			event: 'invoice.overdue',
			timestamp: expect.stringMatching(ISO_MS),
			data: { invoice_id: invoice.id, number: invoice.number, contact_id: contact.id, amount_due: 238, currency: 'EUR', due_date: daysFromToday(-3), days_overdue: 3 },
		});
	});

	it('product.low_stock: once when stock falls below the threshold, again after a recovery', async () => {
		const product = await createProduct(sandbox.api, { sku: 'LAMP-1', name: 'Desk Lamp', low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 12 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 9 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 20 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 0 });
		const bodies = await arrived(2);
		expect(bodies.map((b) => b.data.stock_total)).toEqual([9, 4]);
		expect(bodies[0]).toEqual({
			event: 'product.low_stock',
			timestamp: expect.stringMatching(ISO_MS),
			data: { product_id: product.id, sku: 'LAMP-1', name: 'Desk Lamp', stock_total: 9, low_stock_threshold: 10 },
		});
		expect(await sandbox.admin.events()).toHaveLength(2);
	});

	it('product.low_stock: also when a raised threshold puts the stock below it', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 5 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 3, quantity: 8 });
		await sandbox.api.put(`/products/${product.id}`, { low_stock_threshold: 8 });
		await sandbox.api.put(`/products/${product.id}`, { low_stock_threshold: 9 });
		const bodies = await arrived(1);
		expect(bodies[0].data).toMatchObject({ product_id: product.id, stock_total: 8, low_stock_threshold: 9 });
		expect(await sandbox.admin.events()).toHaveLength(1);
	});

});

describe('on-demand events', () => {
	beforeEach(() => sandbox.admin.addWebhook({ url: receiver.url }));

	it('builds the data from a real record', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		const paid = (await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data;
		await arrived(2);
		const emitted = await sandbox.admin.emit('invoice.paid');
		expect(emitted.data).toEqual({ invoice_id: invoice.id, amount: invoice.total, currency: 'EUR', number: invoice.number, contact_id: contact.id, paid_at: paid.paid_at });
		const bodies = await arrived(3);
		expect(bodies[2]).toEqual({ event: 'invoice.paid', timestamp: emitted.timestamp, data: emitted.data });
	});

	it.each([
		['contact.created', ['id', 'first_name', 'email', 'created_at']],
		['contact.updated', ['id', 'changed_fields']],
		['invoice.paid', ['invoice_id', 'amount', 'currency']],
		['invoice.overdue', ['invoice_id', 'number', 'contact_id', 'amount_due', 'currency', 'due_date', 'days_overdue']],
		['product.low_stock', ['product_id', 'sku', 'name', 'stock_total', 'low_stock_threshold']],
		['employee.hired', ['id', 'employee_number', 'first_name', 'email', 'hire_date']],
	] as const)('sends a realistic %s from an empty store', async (event, keys) => {
		await sandbox.admin.emit(event);
		const [body] = await arrived(1);
		expect(body.event).toBe(event);
		for (const key of keys) expect(body.data[key]).toBeDefined();
	});

	it('passes given data through unchanged', async () => {
		await sandbox.admin.emit('product.low_stock', { product_id: 7, custom: true });
		expect((await arrived(1))[0].data).toEqual({ product_id: 7, custom: true });
	});

	it('refuses an unknown event', async () => {
		const response = await axios.post(`${sandbox.url}/__sandbox/events`, { event: 'invoice.created' }, { validateStatus: () => true });
		expect(response.status).toBe(422);
	});
});

describe('forged deliveries', () => {
	const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

	const arrived = (count: number) => waitFor(() => receiver.received.length >= count && receiver.received);

	async function post(body: object): Promise<Response> {
		return fetch(`${sandbox.url}/__sandbox/deliveries`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	}

	describe('forged deliveries (POST /__sandbox/deliveries)', () => {
		it('sends {event, timestamp, data} with the contract headers, unsigned, for a record that does not exist; no event is recorded', async () => {
			await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_real' });
			const [started] = await sandbox.admin.forge({ event: 'invoice.paid', data: { invoice_id: 90001, amount: 1, currency: 'EUR' } });
			expect(started).toMatchObject({ event: 'invoice.paid', url: receiver.url, forged: true, attempts: [] });
			const [delivery] = await arrived(1);
			expect(delivery.body).toEqual({ event: 'invoice.paid', timestamp: expect.stringMatching(ISO_MS), data: { invoice_id: 90001, amount: 1, currency: 'EUR' } });
			expect(delivery.headers['x-erp-event']).toBe('invoice.paid');
			expect(delivery.headers['x-erp-delivery']).toBe(started.id);
			expect(delivery.headers['x-erp-delivery']).toMatch(UUID);
			expect(delivery.headers['x-erp-signature']).toBeUndefined();
			expect((await sandbox.admin.records('invoices')).length).toBe(0);
			expect(await sandbox.admin.events()).toEqual([]);
		});

		it('is logged with the answer status, and retried like a real delivery while the receiver fails', async () => {
			await sandbox.admin.addWebhook({ url: receiver.url });
			receiver.answerWith([503, 500]);
			const [started] = await sandbox.admin.forge({ event: 'contact.created', data: { id: 424242 } });
			const done = await waitFor(async () => (await sandbox.admin.deliveries()).find((d) => d.id === started.id && d.done));
			expect(done.attempts.map((a) => a.status)).toEqual([503, 500, 200]);
			expect(done).toMatchObject({ delivered: true, forged: true, body: { event: 'contact.created', data: { id: 424242 } } });
			expect(receiver.received.map((r) => r.headers['x-erp-delivery'])).toEqual([started.id, started.id, started.id]);
			expect((await sandbox.admin.deliveries({ done: true })).map((d) => d.id)).toEqual([started.id]);
			expect(await sandbox.admin.deliveries({ done: false })).toEqual([]);
		});

		it('deliveries still being attempted are listed by ?done=false', async () => {
			await sandbox.admin.addWebhook({ url: receiver.url });
			receiver.answerWith([500, 500, 500, 500]);
			const [started] = await sandbox.admin.forge({ event: 'contact.created', data: { id: 1 } });
			expect((await sandbox.admin.deliveries({ done: false })).map((d) => d.id)).toEqual([started.id]);
			await waitFor(async () => (await sandbox.admin.deliveries({ done: false })).length === 0);
			expect((await fetch(`${sandbox.url}/__sandbox/deliveries?done=maybe`)).status).toBe(422);
		});

		it('real deliveries are logged forged: false', async () => {
			await sandbox.admin.addWebhook({ url: receiver.url });
			await sandbox.api.post('/contacts', { first_name: 'Real' });
			await arrived(1);
			expect((await sandbox.admin.deliveries()).map((d) => d.forged)).toEqual([false]);
		});

		it('any id, any headers, any whole body (JSON or text), any event name', async () => {
			await sandbox.admin.addWebhook({ url: receiver.url });
			await sandbox.admin.forge({ event: 'invoice.paid', deliveryId: 'replayed-1', headers: { 'X-Erp-Event': 'contact.created', 'X-Extra': 'yes' } });
			await sandbox.admin.forge({ event: 'product.low_stock', body: { event: 'product.low_stock', data: { product_id: 7 }, extra: [1] } });
			await sandbox.admin.forge({ event: 'contact.updated', body: 'not json at all' });
			await sandbox.admin.forge({ event: 'order.shipped', data: { id: 1 } });
			const received = await arrived(4);
			const byId = received.find((r) => r.headers['x-erp-delivery'] === 'replayed-1');
			expect(byId?.headers['x-erp-event']).toBe('contact.created');
			expect(byId?.headers['x-extra']).toBe('yes');
			expect(received.map((r) => r.raw)).toContain(JSON.stringify({ event: 'product.low_stock', data: { product_id: 7 }, extra: [1] }));
			expect(received.map((r) => r.raw)).toContain('not json at all');
			expect(received.map((r) => r.headers['x-erp-event'])).toContain('order.shipped');
			const logged = await sandbox.admin.deliveries();
			expect(logged.find((d) => d.event === 'contact.updated')?.body).toBe('not json at all');
		});

		it("sign: true uses the subscription's secret, a string signs with that secret", async () => {
			const { id } = await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_real' });
			await sandbox.admin.forge({ event: 'employee.hired', data: { id: 1 }, sign: true, subscriptionId: id });
			await arrived(1);
			await sandbox.admin.forge({ event: 'employee.hired', data: { id: 2 }, sign: 'guessed' });
			const [signed, wrong] = await arrived(2);
			const hmac = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
			expect(signed.headers['x-erp-signature']).toBe(hmac('whsec_real', signed.raw));
			expect(wrong.headers['x-erp-signature']).toBe(hmac('guessed', wrong.raw));
		});

		it("reaches the subscriptions wanting the event, or the one named; the delivery id header follows the variant", async () => {
			const other = await startReceiver();
			try {
				await sandbox.admin.setVariants(['webhook-id-header']);
				await sandbox.admin.addWebhook({ url: receiver.url, events: ['invoice.paid'] });
				const second = await sandbox.admin.addWebhook({ url: other.url, events: ['contact.created'] });
				expect((await sandbox.admin.forge({ event: 'invoice.paid' })).map((d) => d.url)).toEqual([receiver.url]);
				expect((await sandbox.admin.forge({ event: 'invoice.paid', subscriptionId: second.id })).map((d) => d.url)).toEqual([other.url]);
				const [first] = await arrived(1);
				await waitFor(() => other.received.length === 1);
				expect(first.headers['webhook-id']).toMatch(UUID);
				expect(first.headers['x-erp-delivery']).toBeUndefined();
			} finally {
				await other.close();
			}
		});

		it('refuses a missing event, bad headers, a bad sign and an unknown subscription', async () => {
			expect((await post({})).status).toBe(422);
			expect((await post({ event: 'invoice.paid', headers: { 'bad name': 'x' } })).status).toBe(422);
			expect((await post({ event: 'invoice.paid', sign: 3 })).status).toBe(422);
			expect((await post({ event: 'invoice.paid', subscriptionId: 99 })).status).toBe(404);
		});
	});
});

describe('variants of the delivery id', () => {
	// The header that names a delivery, kept on its retries: X-Erp-Delivery by default, Webhook-Id (Standard Webhooks)
	// or none at all under the variants.

	const ID_HEADERS = ['x-erp-delivery', 'webhook-id', 'x-delivery-id', 'x-event-id', 'x-webhook-id', 'idempotency-key'];

	/** Emits contact.created under the variant, its first attempt answered 500, and returns both attempts and the id. */
	async function deliveredTwice(variant: VariantName | null) {
		await sandbox.admin.setVariants(variant ? [variant] : []);
		await sandbox.admin.addWebhook({ url: receiver.url });
		receiver.answerWith([500]);
		const { deliveryIds } = await sandbox.admin.emit('contact.created');
		await waitFor(() => receiver.received.length >= 2);
		const idHeaders = receiver.received.map((r) => Object.keys(r.headers).filter((name) => ID_HEADERS.includes(name)));
		return { attempts: receiver.received, idHeaders, id: deliveryIds[0] };
	}

	it.each<[string, VariantName | null, string | null]>([
		['default: X-Erp-Delivery', null, 'x-erp-delivery'],
		['webhook-id-header: Webhook-Id instead', 'webhook-id-header', 'webhook-id'],
		['no-delivery-id: no id header at all', 'no-delivery-id', null],
	])('the delivery id header, the same on a retry of the same body: %s', async (_name, variant, header) => {
		const { attempts, idHeaders, id } = await deliveredTwice(variant);

		expect(idHeaders).toEqual(header ? [[header], [header]] : [[], []]);
		if (header) expect(attempts.map((a) => a.headers[header])).toEqual([id, id]);
		expect(attempts[0].headers['x-erp-event']).toBe('contact.created');
		expect(attempts[1].raw).toBe(attempts[0].raw);
	});
});
