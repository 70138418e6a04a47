import type { IDataObject } from 'n8n-workflow';

import { createContact, createInvoice, createProduct, daysFromToday } from '../../sandbox/fixtures';
import { SECRET, useConfirmHarness, type Answered } from './confirmHarness';

// The sandbox's real deliveries of the six events reach ERP Trigger version 2 (Confirm With the ERP on, its default)
// over HTTP; the trigger reads each record back from the same sandbox through the node's transport.

const h = useConfirmHarness();
const { sandbox } = h;

/** The record as the ERP holds it now, read by the test itself. */
const held = async (path: string) => (await sandbox.api.get(path)).data.data as IDataObject;

/** Asserts a confirmed delivery: answered 200, one item on Confirmed with the record, nothing on Not Confirmed. */
function expectConfirmed(answer: Answered, event: string) {
	expect(answer.status).toBe(200);
	expect(answer.body).toEqual({ message: 'Event received and confirmed' });
	expect(answer.notConfirmed).toEqual([]);
	expect(answer.confirmed).toHaveLength(1);
	const [item] = answer.confirmed;
	expect(item).toMatchObject({ event, deliveryKey: expect.any(String), confirmation: { status: 'confirmed' } });
	expect(Object.keys(item)).toEqual(['event', 'timestamp', 'deliveryKey', 'confirmation', 'record', 'data']);
	return item;
}

describe('real deliveries are confirmed with the record as the ERP holds it, in one read (two for low stock)', () => {
	beforeEach(async () => {
		const trigger = await h.start();
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
		await h.mark();
	});

	it.each([
		['contact.created', '/contacts', { first_name: 'Anna', last_name: 'Schmidt', email: 'anna@example.com' }],
		['employee.hired', '/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas.weber@example.com' }],
	])('%s', async (event, path, fields) => {
		const { data } = await sandbox.api.post(path, fields);
		const id = data.data.id as number;

		const item = expectConfirmed(await h.delivered(), event);
		expect(await h.reads()).toEqual([`GET ${path}/${id}`]);
		expect(item.record).toEqual(await held(`${path}/${id}`));
		expect(item.data).toMatchObject({ id, first_name: fields.first_name });
	});

	it('contact.updated: the record with the change', async () => {
		const { data } = await sandbox.api.post('/contacts', { first_name: 'Anna' });
		const id = data.data.id as number;
		await sandbox.api.put(`/contacts/${id}`, { company: 'Südwind AG' });

		const item = expectConfirmed(await h.delivered(2), 'contact.updated');
		expect(item.record).toMatchObject({ id, company: 'Südwind AG' });
		expect(item.data).toMatchObject({ id, changed_fields: ['company'] });
	});

	it('invoice.paid after Mark as Paid: the invoice with its lines and contact', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await h.mark();
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });

		const item = expectConfirmed(await h.delivered(2), 'invoice.paid');
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

		const deliveries = await sandbox.admin.deliveries();
		const item = expectConfirmed(await h.delivered(deliveries.length), 'invoice.overdue');
		expect(item.record).toMatchObject({ id: invoice.id, status: 'overdue', due_date: invoice.due_date });
	});

	it('product.low_stock: the product, and the stock total and threshold the decision used', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 3 });
		await h.mark();
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });

		const item = expectConfirmed(await h.delivered(), 'product.low_stock');
		expect(await h.reads()).toEqual([`GET /products/${product.id}`, `GET /products/${product.id}/stock`]);
		expect(item.confirmation).toEqual({ status: 'confirmed', stock: { total: 7, threshold: 10 } });
		expect(item.record).toEqual(await held(`/products/${product.id}`));
		expect(item.data).toMatchObject({ product_id: product.id, stock_total: 7, low_stock_threshold: 10 });
	});
});
