import { createHmac } from 'node:crypto';
import axios from 'axios';

import { useTestSandbox, waitFor } from '../../tooling/harness/sandbox';
import { createContact, createEmployee, createProduct, ISO_MS } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

// Webhook delivery as the triggers' tests rely on it: the request, its signing, its retries, which change emits an
// event, on-demand and forged deliveries. What each event's data holds is proven through the ERP Trigger
// (test/nodes/ErpTrigger/eventKey.test.ts); the variants of the delivery id and timestamp in variants.test.ts.

const sandbox = useTestSandbox();
const receiver = useReceiver();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const hmac = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
const arrived = (count: number) => waitFor(() => receiver.received.length >= count && receiver.received);
const settled = () => waitFor(async () => {
	const all = await sandbox.admin.deliveries();
	return all.length > 0 && all.every((d) => d.done) && all;
});
const events = async () => (await sandbox.admin.events()).map((e) => e.event);
const adminPost = (route: string, body: unknown) => axios.post(`${sandbox.url}/__sandbox/${route}`, body, { validateStatus: () => true });

describe('delivery', () => {
	it('POSTs {event, timestamp, data} with the documented headers, signed with HMAC-SHA256 of the raw body', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_test' });
		const contact = await createContact(sandbox.api);
		const [delivery] = await arrived(1);
		expect(delivery.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'erp-webhooks/1', 'x-erp-event': 'contact.created', 'x-erp-delivery': expect.stringMatching(UUID) });
		expect(delivery.headers['x-erp-signature']).toBe(hmac('whsec_test', delivery.raw));
		expect(delivery.body).toEqual({ event: 'contact.created', timestamp: expect.stringMatching(ISO_MS), data: contact });
	});

	it('without a secret unsigned; only the subscribed events; none after the subscription is removed', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, events: ['employee.hired'] });
		const all = await sandbox.admin.addWebhook({ url: receiver.url });
		expect((await sandbox.admin.webhooks()).map((w) => [w.url, w.signed, w.events])).toEqual([[receiver.url, false, ['employee.hired']], [receiver.url, false, null]]);
		await createContact(sandbox.api);
		await createEmployee(sandbox.api);
		const received = await arrived(3);
		expect(received.map((r) => [r.body.event, r.headers['x-erp-signature']]).sort()).toEqual([['contact.created', undefined], ['employee.hired', undefined], ['employee.hired', undefined]]);
		expect(await sandbox.admin.removeWebhook(all.id)).toEqual({ id: all.id, deleted: true });
		await createEmployee(sandbox.api, { email: 'other@example.com' });
		await arrived(4);
		expect(await sandbox.admin.deliveries()).toHaveLength(4);
		expect((await axios.delete(`${sandbox.url}/__sandbox/webhooks/${all.id}`, { validateStatus: () => true })).status).toBe(404);
	});

	it.each([{ url: 'ftp://example.com' }, { url: 'http://127.0.0.1/hooks', events: ['invoice.created'] }])('refuses the subscription %j', async (body) => {
		expect((await adminPost('webhooks', body)).status).toBe(422);
	});

	it.each<[string, number[], number[], boolean]>([
		['a non-2xx is retried with the same id and bytes until a 2xx', [500, 503], [500, 503, 200], true],
		['gives up after 3 retries (4 attempts)', [500, 500, 500, 500, 500], [500, 500, 500, 500], false],
	])('%s', async (_name, answers, attempts, delivered) => {
		receiver.answerWith(answers);
		await sandbox.admin.addWebhook({ url: receiver.url, secret: 'k' });
		const emitted = await sandbox.admin.emit('employee.hired');
		const [delivery] = await settled();
		expect(delivery).toMatchObject({ id: emitted.deliveryIds[0], delivered, done: true, body: receiver.received[0].body });
		expect(delivery.attempts.map((a) => a.status)).toEqual(attempts);
		expect(new Set(receiver.received.map((r) => `${r.headers['x-erp-delivery']} ${r.raw}`)).size).toBe(1);
	});

	it('retries network errors', async () => {
		const gone = await startReceiver();
		await gone.close();
		await sandbox.admin.addWebhook({ url: gone.url });
		await sandbox.admin.emit('contact.created');
		const [delivery] = await settled();
		expect(delivery.attempts.map((a) => [a.status, a.error])).toEqual(Array(4).fill([undefined, expect.stringContaining('ECONNREFUSED')]));
	});
});

describe('which change emits an event', () => {
	it('contact.updated only when a value changed, with changed_fields', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.api.put(`/contacts/${contact.id}`, { first_name: contact.first_name });
		await sandbox.api.put(`/contacts/${contact.id}`, { email: 'new@example.com', company: contact.company });
		const emitted = await sandbox.admin.events();
		expect(emitted.map((e) => e.event)).toEqual(['contact.created', 'contact.updated']);
		expect(emitted[1].data).toMatchObject({ email: 'new@example.com', changed_fields: ['email'] });
	});

	it('product.low_stock once when the stock falls below the threshold, again after a recovery, and when a raised threshold passes it', async () => {
		const lamp = await createProduct(sandbox.api, { sku: 'LAMP-1', low_stock_threshold: 10 });
		for (const [warehouse_id, quantity] of [[1, 12], [1, 9], [1, 4], [2, 20], [2, 0]]) await sandbox.admin.setStock({ product_id: lamp.id, warehouse_id, quantity });
		const desk = await createProduct(sandbox.api, { sku: 'DESK-1', low_stock_threshold: 5 });
		await sandbox.admin.setStock({ product_id: desk.id, warehouse_id: 3, quantity: 8 });
		for (const low_stock_threshold of [8, 9]) await sandbox.api.put(`/products/${desk.id}`, { low_stock_threshold });
		const low = (await sandbox.admin.events()).filter((e) => e.event === 'product.low_stock').map((e) => e.data);
		expect(low).toEqual([
			expect.objectContaining({ product_id: lamp.id, stock_total: 9 }),
			expect.objectContaining({ product_id: lamp.id, stock_total: 4 }),
			expect.objectContaining({ product_id: desk.id, stock_total: 8, low_stock_threshold: 9 }),
		]);
	});
});

describe('on-demand events (POST /__sandbox/events)', () => {
	beforeEach(() => sandbox.admin.addWebhook({ url: receiver.url }));

	it.each([
		['contact.created', ['id', 'first_name', 'email', 'created_at']],
		['contact.updated', ['id', 'changed_fields']],
		['invoice.paid', ['invoice_id', 'amount', 'currency']],
		['invoice.overdue', ['invoice_id', 'number', 'contact_id', 'amount_due', 'currency', 'due_date', 'days_overdue']],
		['product.low_stock', ['product_id', 'sku', 'name', 'stock_total', 'low_stock_threshold']],
		['employee.hired', ['id', 'employee_number', 'first_name', 'email', 'hire_date']],
	] as const)('a realistic %s from an empty store, delivered as emitted', async (event, keys) => {
		const emitted = await sandbox.admin.emit(event);
		const [{ body }] = await arrived(1);
		expect(body).toEqual({ event, timestamp: emitted.timestamp, data: emitted.data });
		for (const key of keys) expect(body.data[key]).toBeDefined();
	});

	it('builds the data from a real record; passes given data through; refuses an unknown event', async () => {
		const contact = await createContact(sandbox.api);
		expect((await sandbox.admin.emit('contact.created')).data).toEqual(contact);
		expect((await sandbox.admin.emit('product.low_stock', { product_id: 7, custom: true })).data).toEqual({ product_id: 7, custom: true });
		const refusal = await adminPost('events', { event: 'invoice.created' });
		expect([refusal.status, refusal.data.error.fields.event[0]]).toEqual([422, expect.stringMatching(/future-events/)]);
	});
});

describe('forged deliveries (POST /__sandbox/deliveries)', () => {
	it('unsigned, for a record that does not exist, recording no event; retried like a real one; ?done filters', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_real' });
		receiver.answerWith([503]);
		const [started] = await sandbox.admin.forge({ event: 'invoice.paid', data: { invoice_id: 90001, amount: 1, currency: 'EUR' } });
		expect(started).toMatchObject({ event: 'invoice.paid', url: receiver.url, forged: true, attempts: [] });
		expect((await sandbox.admin.deliveries({ done: false })).map((d) => d.id)).toEqual([started.id]);
		const [first, retry] = await arrived(2);
		expect(first.body).toEqual({ event: 'invoice.paid', timestamp: expect.stringMatching(ISO_MS), data: { invoice_id: 90001, amount: 1, currency: 'EUR' } });
		expect([first.headers['x-erp-event'], first.headers['x-erp-delivery'], retry.headers['x-erp-delivery'], first.headers['x-erp-signature']]).toEqual(['invoice.paid', started.id, started.id, undefined]);
		expect((await settled()).map((d) => [d.forged, d.attempts.map((a) => a.status)])).toEqual([[true, [503, 200]]]);
		expect([await sandbox.admin.deliveries({ done: false }), await events()]).toEqual([[], []]);
		await sandbox.api.post('/contacts', { first_name: 'Real' });
		await arrived(3);
		expect((await sandbox.admin.deliveries({ done: true })).map((d) => d.forged).sort()).toEqual([false, true]);
	});

	it('any id, headers, whole body (JSON or text) or event name; signed by the subscription secret or a given one', async () => {
		const { id } = await sandbox.admin.addWebhook({ url: receiver.url, secret: 'whsec_real' });
		await sandbox.admin.forge({ event: 'invoice.paid', deliveryId: 'replayed-1', headers: { 'X-Erp-Event': 'contact.created', 'X-Extra': 'yes' } });
		await sandbox.admin.forge({ event: 'contact.updated', body: 'not json at all' });
		await sandbox.admin.forge({ event: 'order.shipped', data: { id: 1 }, sign: true, subscriptionId: id });
		await sandbox.admin.forge({ event: 'employee.hired', data: { id: 2 }, sign: 'guessed' });
		const received = await arrived(4);
		const by = (event: string) => received.find((r) => r.headers['x-erp-event'] === event);
		expect(by('contact.created')?.headers).toMatchObject({ 'x-erp-delivery': 'replayed-1', 'x-extra': 'yes' });
		expect(by('contact.updated')?.raw).toBe('not json at all');
		expect(by('order.shipped')?.headers['x-erp-signature']).toBe(hmac('whsec_real', by('order.shipped')?.raw ?? ''));
		expect(by('employee.hired')?.headers['x-erp-signature']).toBe(hmac('guessed', by('employee.hired')?.raw ?? ''));
	});

	it('reaches the subscriptions wanting the event, or the one named; refuses bad requests', async () => {
		await sandbox.admin.addWebhook({ url: receiver.url, events: ['invoice.paid'] });
		const other = await sandbox.admin.addWebhook({ url: 'http://127.0.0.1:9/hooks', events: ['contact.created'] });
		expect((await sandbox.admin.forge({ event: 'invoice.paid' })).map((d) => d.url)).toEqual([receiver.url]);
		expect((await sandbox.admin.forge({ event: 'invoice.paid', subscriptionId: other.id })).map((d) => d.url)).toEqual([other.url]);
		const refusals = [{}, { event: 'invoice.paid', headers: { 'bad name': 'x' } }, { event: 'invoice.paid', sign: 3 }, { event: 'invoice.paid', subscriptionId: 99 }];
		expect(await Promise.all(refusals.map(async (body) => (await adminPost('deliveries', body)).status))).toEqual([422, 422, 422, 404]);
	});
});
