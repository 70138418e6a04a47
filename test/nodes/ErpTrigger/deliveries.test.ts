import type { IDataObject } from 'n8n-workflow';

import type { WebhookCall } from '../../../tooling/harness';
import { createContact, createInvoice, createProduct, daysFromToday, ISO_MS } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness, type Answered } from './harness';

// The sandbox's real deliveries (its own signing, headers and retries) reach the ERP Trigger over HTTP; version 2 reads
// each record back from the same sandbox through the node's transport.

const h = useTriggerHarness();
const { sandbox } = h;

/** The record as the ERP holds it now, read by the test itself. */
const held = async (path: string) => (await sandbox.api.get(path)).data.data as IDataObject;

/** Asserts a signed, verified, confirmed delivery: 200, one item on Confirmed, the delivery as sent with its id as key. */
async function expectConfirmed(answer: Answered, event: string) {
	const delivery = (await sandbox.admin.deliveries()).find((d) => d.id === answer.call.request.headers['x-erp-delivery']);
	expect(answer.call.request.headers['x-erp-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
	expect(delivery).toMatchObject({ event, delivered: true, attempts: [{ status: 200 }] });
	expect({ status: answer.status, body: answer.body, notConfirmed: answer.notConfirmed }).toEqual({ status: 200, body: { message: 'Event received and confirmed' }, notConfirmed: [] });
	expect(answer.confirmed).toHaveLength(1);
	const [item] = answer.confirmed;
	expect(Object.keys(item)).toEqual(['event', 'timestamp', 'deliveryKey', 'eventKey', 'confirmation', 'record', 'data']);
	expect(item).toMatchObject({ ...(delivery?.body as object), deliveryKey: delivery?.id, timestamp: expect.stringMatching(ISO_MS), confirmation: { status: 'confirmed' } });
	return item;
}

describe('real deliveries of the six events, signed: verified, then confirmed with the record as the ERP holds it', () => {
	beforeEach(async () => {
		const trigger = await h.start({ verification: 'hmacSha256' });
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
		await h.mark();
	});

	it.each([
		['contact.created', '/contacts', { first_name: 'Anna', last_name: 'Schmidt', email: 'anna@example.com' }],
		['employee.hired', '/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas.weber@example.com' }],
	])('%s: the full record, in one read', async (event, path, fields) => {
		const { data } = await sandbox.api.post(path, fields);
		const id = data.data.id as number;

		const item = await expectConfirmed(await h.delivered(), event);
		expect(await h.reads()).toEqual([`GET ${path}/${id}`]);
		expect(item.record).toEqual(await held(`${path}/${id}`));
		expect(item.data).toEqual(item.record);
	});

	it('contact.updated: the record with the change, and the changed fields', async () => {
		const { data } = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		const id = data.data.id as number;
		await sandbox.api.put(`/contacts/${id}`, { company: 'Südwind AG' });

		const item = await expectConfirmed(await h.delivered(2), 'contact.updated');
		expect(item.record).toMatchObject({ id, company: 'Südwind AG' });
		expect(item.data).toMatchObject({ id, changed_fields: ['company'] });
	});

	it('invoice.paid after Mark as Paid: invoice_id, amount, currency, and the invoice with its lines, in one read', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await h.mark();
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });

		const item = await expectConfirmed(await h.delivered(2), 'invoice.paid');
		expect(await h.reads()).toEqual([`GET /invoices/${invoice.id}`]);
		expect(item.record).toEqual(await held(`/invoices/${invoice.id}`));
		expect(item.record).toMatchObject({ status: 'paid', contact_id: contact.id, lines: [expect.objectContaining({ description: 'Consulting' })] });
		expect(item.data).toMatchObject({ invoice_id: invoice.id, amount: 238, currency: 'EUR' });
	});

	it('invoice.overdue found by the overdue sweep: overdue by its status', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await sandbox.admin.sweep(daysFromToday(40));

		const item = await expectConfirmed(await h.delivered((await sandbox.admin.deliveries()).length), 'invoice.overdue');
		expect(item.record).toMatchObject({ id: invoice.id, status: 'overdue', due_date: invoice.due_date });
		expect(item.data).toMatchObject({ invoice_id: invoice.id, number: invoice.number, amount_due: 238, days_overdue: 10 });
	});

	it('product.low_stock: the product, and the stock total and threshold the decision used, in two reads', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 3 });
		await h.mark();
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });

		const item = await expectConfirmed(await h.delivered(), 'product.low_stock');
		expect(await h.reads()).toEqual([`GET /products/${product.id}`, `GET /products/${product.id}/stock`]);
		expect(item.confirmation).toEqual({ status: 'confirmed', stock: { total: 7, threshold: 10 } });
		expect(item.record).toEqual(await held(`/products/${product.id}`));
		expect(item.data).toEqual({ product_id: product.id, sku: product.sku, name: product.name, stock_total: 7, low_stock_threshold: 10 });
	});
});

// Which header or digest is the key: steps.test.ts; the sandbox's header variants: its own tests.
describe('deliveryKey of real deliveries: the same for every copy of one delivery, another for another', () => {
	const keyOf = (call: WebhookCall) => call.workflowData?.[0][0].json.deliveryKey;

	it('X-Erp-Delivery (the sandbox’s): the delivery id, the same when the ERP resends the request, another for the next delivery', async () => {
		const trigger = await h.start({}, { typeVersion: 1 });
		await sandbox.admin.addWebhook({ url: trigger.url });
		await sandbox.admin.emit('invoice.paid', { invoice_id: 7, amount: 119.5, currency: 'EUR' });
		const [first] = await trigger.waitForCalls(1);
		await sandbox.admin.emit('invoice.paid', { invoice_id: 7, amount: 119.5, currency: 'EUR' });
		const [one, two] = await h.ended(2);
		const headers = Object.entries(first.request.headers).filter(([name]) => !['content-length', 'host', 'connection'].includes(name));
		expect((await fetch(trigger.url, { method: 'POST', headers: headers as Array<[string, string]>, body: first.request.rawBody })).status).toBe(200);
		const [, second, again] = await trigger.waitForCalls(3);

		expect([keyOf(first), keyOf(second), keyOf(again)]).toEqual([one.id, two.id, one.id]);
		expect(one.id).not.toBe(two.id);
	});
});
