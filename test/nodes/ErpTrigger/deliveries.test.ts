import type { INodeParameters } from 'n8n-workflow';

import type { WebhookCall } from '../../../tooling/harness';
import {
	createContact,
	createEmployee,
	createInvoice,
	createProduct,
	daysFromToday,
	ISO_MS,
} from '../../sandbox/fixtures';
import { useTriggerHarness } from './harness';

// The sandbox's real deliveries (its own signing, headers and retries) reach the ERP Trigger's webhook() through
// n8n-core's WebhookContext, over HTTP.

const SECRET = 'whsec_sandbox_7f3a';
const signed: INodeParameters = { events: ['*'], verification: 'hmacSha256' };

const { sandbox, startTrigger: start, finishedDelivery } = useTriggerHarness();
const startTrigger = (parameters: INodeParameters, secret = SECRET) => start(parameters, secret);

/** Asserts the call was a verified, accepted delivery, and returns the one item the trigger started with. */
async function expectStarted(call: WebhookCall, event: string) {
	const delivery = await finishedDelivery();
	expect(call.request.headers['x-erp-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
	expect(call.request.headers['x-erp-event']).toBe(event);
	expect(call.status).toBe(200);
	expect(call.body).toEqual({ message: 'Event received' });
	expect(delivery).toMatchObject({ event, delivered: true, attempts: [{ status: 200 }] });
	expect(call.workflowData).toHaveLength(1);
	expect(call.workflowData?.[0]).toHaveLength(1);
	const [item] = call.workflowData?.[0] ?? [];
	expect(call.request.headers['x-erp-delivery']).toBe(delivery.id);
	expect(item.json).toEqual({ ...(delivery.body as object), deliveryKey: delivery.id });
	expect(item.json).toMatchObject({ event, timestamp: expect.stringMatching(ISO_MS) });
	return item.json;
}

describe('real deliveries of the six events, signed and verified', () => {
	it('contact.created: the full contact', async () => {
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		const contact = await createContact(sandbox.api);

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'contact.created');
		expect(json.data).toEqual(contact);
	});

	it('contact.updated: the full contact and the changed fields', async () => {
		const contact = await createContact(sandbox.api);
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Südwind AG' });

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'contact.updated');
		expect(json.data).toMatchObject({ id: contact.id, company: 'Südwind AG', changed_fields: ['company'] });
	});

	it('invoice.paid: invoice_id, amount, currency (the documented fields) and more', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'invoice.paid');
		expect(json.data).toMatchObject({ invoice_id: invoice.id, amount: 238, currency: 'EUR', contact_id: contact.id });
	});

	it('invoice.overdue: found by the overdue sweep', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await sandbox.admin.sweep(daysFromToday(40));

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'invoice.overdue');
		expect(json.data).toMatchObject({
			invoice_id: invoice.id,
			number: invoice.number,
			amount_due: 238,
			days_overdue: 10,
		});
	});

	it('product.low_stock: stock falling below the threshold', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'product.low_stock');
		expect(json.data).toEqual({
			product_id: product.id,
			sku: product.sku,
			name: product.name,
			stock_total: 4,
			low_stock_threshold: 10,
		});
	});

	it('employee.hired: the full employee', async () => {
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		const employee = await createEmployee(sandbox.api);

		const [call] = await harness.waitForCalls(1);
		const json = await expectStarted(call, 'employee.hired');
		expect(json.data).toEqual(employee);
	});
});

describe('verification against the sandbox', () => {
	it('answers 401 to every attempt signed with another secret: the ERP retries, gives up, nothing starts', async () => {
		const harness = await startTrigger(signed, 'not-the-erp-secret');
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await createEmployee(sandbox.api);

		const calls = await harness.waitForCalls(4);
		const delivery = await finishedDelivery();
		for (const call of calls) {
			expect(call.status).toBe(401);
			expect(call.body).toEqual({
				message:
					'X-Erp-Signature is not a valid signature of the body: check that the ERP and the Webhook Signing Secret of the ERP API credential are the same',
			});
			expect(call.workflowData).toBeUndefined();
		}
		expect(delivery.delivered).toBe(false);
		expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([401, 401, 401, 401]);
	});

	it('answers 401 to an unsigned delivery when a signature is required', async () => {
		const harness = await startTrigger(signed);
		await sandbox.admin.addWebhook({ url: harness.url });
		await sandbox.admin.emit('invoice.paid');

		const [call] = await harness.waitForCalls(1);
		expect(call).toMatchObject({ status: 401, body: { message: 'Missing X-Erp-Signature header: send the HMAC-SHA256 of the body, keyed with the secret' } });
		expect(call.workflowData).toBeUndefined();
	});

	it('accepts signed deliveries without checking them when verification is off', async () => {
		const harness = await startTrigger({ events: ['*'] }, 'not-the-erp-secret');
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await sandbox.admin.emit('contact.created');

		const [call] = await harness.waitForCalls(1);
		expect(call.status).toBe(200);
		expect(call.workflowData?.[0][0].json.event).toBe('contact.created');
	});
});

describe('event selection and output with real deliveries', () => {
	it('acknowledges an event that is not selected: 200 to the ERP, no retry, nothing started', async () => {
		const harness = await startTrigger({ ...signed, events: ['invoice.paid', 'invoice.overdue'] });
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		await createEmployee(sandbox.api);

		const [call] = await harness.waitForCalls(1);
		const delivery = await finishedDelivery();
		expect(call.status).toBe(200);
		expect(call.body).toEqual({ message: 'Event employee.hired is not selected in this trigger: ignored' });
		expect(call.workflowData).toBeUndefined();
		expect(delivery).toMatchObject({ delivered: true, attempts: [{ status: 200 }] });
	});

	it('outputs the data at the top level when asked', async () => {
		const harness = await startTrigger({ ...signed, options: { dataAtTopLevel: true } });
		await sandbox.admin.addWebhook({ url: harness.url, secret: SECRET });
		const employee = await createEmployee(sandbox.api);

		const [call] = await harness.waitForCalls(1);
		const delivery = await finishedDelivery();
		const { timestamp } = delivery.body as { timestamp: string };
		expect(call.workflowData?.[0][0].json).toEqual({ ...employee, event: 'employee.hired', timestamp, deliveryKey: delivery.id });
	});
});
