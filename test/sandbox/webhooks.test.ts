import { createHmac } from 'node:crypto';
import axios from 'axios';

import { startTestSandbox, waitFor, type TestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createEmployee, createInvoice, createProduct, daysFromToday, ISO_MS, todayUtc } from './fixtures';
import { startReceiver, type Receiver } from './receiver';

let sandbox: TestSandbox;
let receiver: Receiver;

beforeAll(async () => {
	sandbox = await startTestSandbox();
	receiver = await startReceiver();
});
afterAll(async () => {
	await sandbox.close();
	await receiver.close();
});
beforeEach(async () => {
	await sandbox.admin.reset();
	receiver.received.length = 0;
	receiver.answerWith([]);
});

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

	it('employee.hired: the full employee', async () => {
		const employee = await createEmployee(sandbox.api, { department: 'Finance' });
		const bodies = await arrived(1);
		expect(bodies[0]).toEqual({ event: 'employee.hired', timestamp: expect.stringMatching(ISO_MS), data: employee });
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
