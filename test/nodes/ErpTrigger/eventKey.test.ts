import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpPollingTrigger } from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import type { Delivery } from '../../../sandbox/webhooks';
import { createPoller } from '../../../tooling/harness';
import { createContact, createInvoice, createProduct, daysFromToday, ISO_MS } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness, type Answered } from './harness';

// Real deliveries of the sandbox to ERP Trigger version 2, which reads each record back from the same sandbox: what
// each event's data holds, the item, and its eventKey: the same for every report of one occurrence in the ERP (a
// resend with a new timestamp and delivery id, the polling trigger's report of it), another for another occurrence.

const h = useTriggerHarness();
const { sandbox } = h;

const keyOf = (answer: Answered): string => {
	const [item] = [...answer.confirmed, ...answer.notConfirmed];
	return String(item.eventKey);
};

/** The ERP's delivery sent again as a replay would be: the same data, a new timestamp and a new delivery id. */
const replay = async (delivery: Delivery, id: string) =>
	await h.post({ ...(delivery.body as IDataObject), timestamp: new Date(Date.now() + 60_000).toISOString() }, { 'X-Erp-Delivery': id });

/** The sandbox's next delivery to the trigger, the trigger's answer to it, and the delivery. */
async function nextDelivery(count: number): Promise<{ answer: Answered; delivery: Delivery }> {
	const answer = await h.delivered(count);
	return { answer, delivery: (await h.ended(count))[count - 1] };
}

/** The record as the ERP holds it now, read by the test itself. */
const held = async (path: string) => (await sandbox.api.get(path)).data.data as IDataObject;

/** The one item of a delivery answered 200 and confirmed: the delivery as sent, its id as deliveryKey, then what was read. */
async function confirmedItem({ answer, delivery }: { answer: Answered; delivery: Delivery }): Promise<IDataObject> {
	expect({ status: answer.status, body: answer.body, notConfirmed: answer.notConfirmed, count: answer.confirmed.length }).toEqual({ status: 200, body: { message: 'Event received and confirmed' }, notConfirmed: [], count: 1 });
	const [item] = answer.confirmed;
	expect(Object.keys(item)).toEqual(['event', 'timestamp', 'deliveryKey', 'eventKey', 'confirmation', 'record', 'data']);
	expect(item).toMatchObject({ ...(delivery.body as IDataObject), deliveryKey: delivery.id, timestamp: expect.stringMatching(ISO_MS), confirmation: { status: 'confirmed' } });
	return item;
}

/** An ERP Polling Trigger on the file's sandbox, as an active workflow holds it. */
const pollerFor = (parameters: INodeParameters) =>
	createPoller({ nodeType: new ErpPollingTrigger(), parameters, credentialType: new ErpApi(), credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token } });

describe('ERP Trigger version 2, signed real deliveries of the other events: verified, then confirmed with the record as the ERP holds it', () => {
	beforeEach(async () => {
		const trigger = await h.start({ verification: 'hmacSha256' });
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET, events: ['contact.created', 'employee.hired', 'invoice.overdue'] });
	});

	it.each([
		['contact.created', '/contacts', { first_name: 'Anna', last_name: 'Schmidt', email: 'anna@example.com' }],
		['employee.hired', '/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas.weber@example.com' }],
	])('%s: the full record, in one read', async (_event, path, fields) => {
		const id = (await sandbox.api.post(path, fields)).data.data.id as number;

		const item = await confirmedItem(await nextDelivery(1));
		expect(await h.reads()).toEqual([`GET ${path}/${id}`]);
		expect([item.record, item.data]).toEqual(Array(2).fill(await held(`${path}/${id}`)));
	});

	it('invoice.overdue found by the overdue sweep: overdue by its status', async () => {
		const invoice = await createInvoice(sandbox.api, (await createContact(sandbox.api)).id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await sandbox.admin.sweep(daysFromToday(40));

		// The second delivery: the first is the contact's.
		const item = await confirmedItem(await nextDelivery(2));
		expect(item.record).toMatchObject({ id: invoice.id, status: 'overdue', due_date: invoice.due_date });
		expect(item.data).toMatchObject({ invoice_id: invoice.id, number: invoice.number, amount_due: 238, days_overdue: 10 });
	});
});

describe('ERP Trigger version 2, Confirm With the ERP on: the key of what the confirmation read', () => {
	beforeEach(async () => {
		const trigger = await h.start({ options: { confirmationWait: 0 } });
		await sandbox.admin.addWebhook({ url: trigger.url, events: ['invoice.paid', 'contact.updated', 'product.low_stock'] });
	});

	it('invoice.paid: invoice_id, amount, currency, and the paid invoice with its lines in one read; sent again with a new timestamp and delivery id, the same eventKey (another deliveryKey); the polling trigger’s report of the payment has it too', async () => {
		const invoice = await createInvoice(sandbox.api, (await createContact(sandbox.api)).id);
		const poller = pollerFor({ triggerOn: 'invoice:fieldValue', field: 'status', value: 'paid' });
		// The first poll takes note of the invoices as they are (unpaid).
		await poller.poll();
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });

		const paid = await nextDelivery(1);
		const { answer, delivery } = paid;
		const item = await confirmedItem(paid);
		expect(await h.reads(`/invoices/${invoice.id}`)).toEqual([`GET /invoices/${invoice.id}`]);
		expect(item.record).toEqual(await held(`/invoices/${invoice.id}`));
		expect(item).toMatchObject({ record: { status: 'paid', lines: [expect.objectContaining({ description: 'Consulting' })] }, data: { invoice_id: invoice.id, amount: 238, currency: 'EUR' } });
		const again = await replay(delivery, 'replayed-delivery-1');
		const { items } = await poller.poll();

		expect([answer.confirmed.length, again.confirmed.length]).toEqual([1, 1]);
		expect(again.confirmed[0].deliveryKey).not.toBe(answer.confirmed[0].deliveryKey);
		expect(keyOf(again)).toBe(keyOf(answer));
		expect(items?.map(({ json }) => [json.event, json.eventKey])).toEqual([['invoice.paid', keyOf(answer)]]);
		expect(items?.[0].json.deliveryKey).not.toBe(answer.confirmed[0].deliveryKey);
	});

	// Keyed by the record as read now: a late delivery of an earlier update gets the newest one's (shared/eventKey.test.ts).
	it('contact.updated: the record with the change, and the changed fields; two real updates, two keys; the polling trigger’s Record Updated reports each with the webhook’s key for it', async () => {
		const contact = await createContact(sandbox.api);
		const poller = pollerFor({ triggerOn: 'contact:recordUpdated' });
		await poller.poll();
		const keys: Array<[string, string]> = [];
		for (const [count, company] of [[1, 'Südwind AG'], [2, 'Westwind KG']] as const) {
			await sandbox.api.put(`/contacts/${contact.id}`, { company });
			const { answer } = await nextDelivery(count);
			expect(answer.confirmed[0]).toMatchObject({ record: { id: contact.id, company }, data: { id: contact.id, changed_fields: ['company'] } });
			const { items } = await poller.poll();
			expect(items?.map(({ json }) => json.event)).toEqual(['contact.updated']);
			keys.push([keyOf(answer), String(items?.[0].json.eventKey)]);
		}

		expect(keys.map(([webhook, polled]) => polled === webhook)).toEqual([true, true]);
		expect(keys[1][0]).not.toBe(keys[0][0]);
	});

	it('product.low_stock: the product, and the stock total and threshold the decision used, in two reads; a drop again after a restock to the same total is another key (the stock rows’ update time)', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 3 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });
		const first = await nextDelivery(1);
		const item = await confirmedItem(first);
		expect(await h.reads(`/products/${product.id}`)).toEqual([`GET /products/${product.id}`, `GET /products/${product.id}/stock`]);
		expect(item.record).toEqual(await held(`/products/${product.id}`));
		expect(item.data).toEqual({ product_id: product.id, sku: product.sku, name: product.name, stock_total: 7, low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });
		const second = await nextDelivery(2);

		expect([item.confirmation, second.answer.confirmed[0].confirmation]).toEqual(Array(2).fill({ status: 'confirmed', stock: { total: 7, threshold: 10 } }));
		expect(keyOf(second.answer)).not.toBe(keyOf(first.answer));
		expect(keyOf(await replay(second.delivery, 'replayed-stock'))).toBe(keyOf(second.answer));
	});
});

describe('version 1, and Confirm With the ERP off: the key of the record fields the delivery carries', () => {
	it.each([
		['version 1', {}, 1],
		['Confirm With the ERP off', { confirm: false }, 2],
	] as const)('%s: one output, answered as version 1; the same key for a replay with a new timestamp and delivery id, without a request, and the confirmed trigger’s key for the same payment', async (_, parameters, typeVersion) => {
		const trigger = await h.start(parameters, { typeVersion });
		await sandbox.admin.addWebhook({ url: trigger.url, events: ['invoice.paid'] });
		const invoice = await createInvoice(sandbox.api, (await createContact(sandbox.api)).id);
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });
		const { answer, delivery } = await nextDelivery(1);
		const started = [[{ json: { ...(delivery.body as IDataObject), deliveryKey: delivery.id, eventKey: keyOf(answer) } }]];
		expect({ status: answer.status, body: answer.body, started: answer.call.workflowData }).toEqual({ status: 200, body: { message: 'Event received' }, started });
		await h.mark();
		const again = await replay(delivery, 'replayed-unconfirmed');
		const other = await h.post({ ...(delivery.body as IDataObject), data: { ...(delivery.body as { data: IDataObject }).data, paid_at: '2026-01-01T00:00:00Z' } });
		expect(keyOf(again)).toBe(keyOf(answer));
		expect(keyOf(other)).not.toBe(keyOf(answer));
		expect(await h.reads()).toEqual([]);
		// What version 2 confirms for this payment, from the invoice it reads (replay() posts to the trigger started last).
		await h.start({});
		expect(keyOf(await replay(delivery, 'replayed-confirmed'))).toBe(keyOf(answer));
	});
});
