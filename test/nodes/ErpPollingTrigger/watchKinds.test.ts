import type { IDataObject } from 'n8n-workflow';

import { waitFor } from '../../../tooling/harness/sandbox';
import { startReceiver } from '../../sandbox/receiver';
import { createContact, createEmployee, createInvoice, createProduct, pollOk, reported, usePollingHarness } from './harness';

/** Each Trigger On, against the sandbox: what later polls report once (contacts and any list added: guarantees.test.ts, ADDED_WATCHES). */
describe('ERP Polling Trigger: what it watches', () => {
	const { sandbox, poller } = usePollingHarness();

	it('Record Added for employees is employee.hired; for invoices and products <resource>.created', async () => {
		const hired = poller({ triggerOn: 'employee:recordAdded' });
		const products = poller({ triggerOn: 'product:recordAdded' });
		await pollOk(hired);
		await pollOk(products);
		const employee = await createEmployee(sandbox.api);
		const product = await createProduct(sandbox.api);
		expect(reported(await pollOk(hired))).toEqual([`employee.hired ${employee.id}`]);
		expect(reported(await pollOk(products))).toEqual([`product.created ${product.id}`]);
	});

	it('Record Updated on every field: reports a changed contact once, naming the fields that changed; a write changing nothing reports nothing', async () => {
		const contact = await createContact(sandbox.api, { email: 'anna@example.com' });
		const untouched = await createContact(sandbox.api, { email: 'other@example.com' });
		const trigger = poller({ triggerOn: 'contact:recordUpdated' });
		await pollOk(trigger);
		expect((await sandbox.api.put(`/contacts/${contact.id}`, { email: contact.email })).status).toBe(200);
		expect(await pollOk(trigger)).toBeNull();

		expect((await sandbox.api.put(`/contacts/${contact.id}`, { ...contact, company: 'Ostwind AG' })).status).toBe(200);
		const items = await pollOk(trigger);
		expect(reported(items)).toEqual([`contact.updated ${contact.id}`]);
		const json = items?.[0].json as IDataObject;
		expect((json.data as IDataObject).changed_fields).toEqual(expect.arrayContaining(['company']));
		expect(json.changes).toMatchObject({ company: { current: 'Ostwind AG' } });
		expect(await pollOk(trigger)).toBeNull();
		expect(reported(items)).not.toContain(`contact.updated ${untouched.id}`);
	});

	// Fields to Watch, with the previous values: guarantees.test.ts (a record added under Record Updated) and pureRules.test.ts;
	// Record Added or Updated: the overlapping polls of guarantees.test.ts.
	it('Field Becomes a Value: invoice.paid once when an invoice is paid, with invoice_id; not for one paid before activation', async () => {
		const contact = await createContact(sandbox.api);
		const paidBefore = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${paidBefore.id}/send`);
		await sandbox.api.post(`/invoices/${paidBefore.id}/mark-paid`);
		const invoice = await createInvoice(sandbox.api, contact.id);
		const trigger = poller({ triggerOn: 'invoice:fieldValue', field: 'status', value: 'paid' });
		await pollOk(trigger);

		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		expect(await pollOk(trigger)).toBeNull();
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).status).toBe(200);
		const items = await pollOk(trigger);
		expect(reported(items)).toEqual([`invoice.paid ${invoice.id}`]);
		expect(items?.[0].json.data).toMatchObject({ invoice_id: invoice.id, status: 'paid', currency: invoice.currency });
		expect(await pollOk(trigger)).toBeNull();
	});

	it('Field Becomes a Value: invoice.overdue when the ERP marks an invoice overdue; a value typed by expression works the same', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: '2020-01-01', due_date: '2020-01-31' } as IDataObject);
		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		const trigger = poller({ triggerOn: 'invoice:fieldValue', field: 'status', value: '={{ "over" + "due" }}' });
		await pollOk(trigger);
		const { overdue } = await sandbox.admin.sweep();
		expect(overdue).toContain(invoice.id);
		expect(reported(await pollOk(trigger))).toEqual([`invoice.overdue ${invoice.id}`]);
	});

	it('Stock Below Threshold (a number, chosen products): only the products listed are read', async () => {
		const watched = await createProduct(sandbox.api, { sku: 'A-1' });
		const other = await createProduct(sandbox.api, { sku: 'B-1' });
		for (const product of [watched, other]) await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		const trigger = poller({ triggerOn: 'product:lowStock', products: 'chosen', productIds: `${watched.id}`, thresholdType: 'number', threshold: 20 });
		await pollOk(trigger);
		await sandbox.admin.clearRequests();
		for (const product of [watched, other]) await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 5 });
		expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${watched.id}`]);
		const paths = (await sandbox.admin.requests()).map((r) => `${r.method} ${r.path}`);
		expect(paths.sort()).toEqual([`GET /products/${watched.id}`, `GET /products/${watched.id}/stock`].sort());
	});

	// Items a webhook workflow can take.
	it('have event, timestamp, deliveryKey and data like the ERP Trigger, one key per report; or the data at the top level', async () => {
		const trigger = poller({ triggerOn: 'contact:recordAdded' });
		const top = poller({ triggerOn: 'contact:recordAdded', options: { dataAtTopLevel: true } });
		await pollOk(trigger);
		await pollOk(top);
		const a = await createContact(sandbox.api, { email: 'a@example.com' });
		await createContact(sandbox.api, { email: 'b@example.com' });
		const items = (await pollOk(trigger)) ?? [];
		expect(Object.keys(items[0].json)).toEqual(['event', 'timestamp', 'deliveryKey', 'eventKey', 'data']);
		expect(items[0].json).toMatchObject({ event: 'contact.created', data: { id: a.id, email: 'a@example.com' } });
		const keys = items.map(({ json }) => json.deliveryKey);
		expect(keys.every((key) => /^[0-9a-f]{64}$/.test(String(key)))).toBe(true);
		expect(new Set(keys).size).toBe(2);
		const [flat] = (await pollOk(top)) ?? [];
		expect(flat.json).toMatchObject({ event: 'contact.created', id: a.id, email: 'a@example.com' });
		expect(flat.json.deliveryKey).toMatch(/^[0-9a-f]{64}$/);
	});

	it("Stock Below Threshold: a poll and Fetch Test Event give the data of the webhook's product.low_stock, each field under one name", async () => {
		const receiver = await startReceiver();
		try {
			await sandbox.admin.addWebhook({ url: receiver.url });
			const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
			const trigger = poller({ triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold' });
			await pollOk(trigger);
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 3 });
			const delivered = await waitFor(() => receiver.received.find((r) => r.body.event === 'product.low_stock')?.body.data);

			const [polled] = (await pollOk(trigger)) ?? [];
			const [fetched] = (await trigger.testStep()).items ?? [];
			for (const { json } of [polled, fetched]) {
				expect(json.event).toBe('product.low_stock');
				expect(json.data).toMatchObject(delivered);
				expect(json.data).not.toHaveProperty('id');
				expect(json.data).not.toHaveProperty('threshold');
			}
		} finally {
			await receiver.close();
		}
	});
});
