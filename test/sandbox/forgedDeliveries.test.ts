import { createHmac } from 'node:crypto';

import { useTestSandbox, waitFor } from '../../tooling/harness/sandbox';
import { ISO_MS } from './fixtures';
import { startReceiver, useReceiver } from './receiver';

const sandbox = useTestSandbox();
const receiver = useReceiver();

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
