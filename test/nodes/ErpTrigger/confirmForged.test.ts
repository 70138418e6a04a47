import { createHmac } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { createContact, createInvoice, createProduct, daysFromToday } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness, type Answered } from './harness';

// Deliveries anyone who knows the URL can send (any body, any ID), to ERP Trigger version 2 with Confirm With the ERP
// on, whose credential points at the sandbox. Confirmation Wait 0 reads each record once before the answer; a
// contradicted one is read on after it until 10 s after it came (at 0.5, 1.5, 3.5 and 7.5 s: lateVisible.test.ts's
// subject), 5 reads in all, and its item's reason says so. The contradicted ones go side by side to one trigger.

const h = useTriggerHarness();
const { sandbox } = h;
const once = { options: { confirmationWait: 0 } };
const delivery = (event: string, data: IDataObject) => ({ event, timestamp: '2026-11-28T10:00:00.000Z', data });
const signature = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const READS = 5;
const readOn = (reads: string[]) => Array.from({ length: READS }, () => reads).flat();
const LATER_READS = new RegExp(`, read ${READS} times over \\d+(\\.\\d)? s$`);

/** Asserts a delivery answered 200 that went to Unconfirmed only, and returns its confirmation. */
function expectNotConfirmed(answer: Answered, status: 'contradicted' | 'unconfirmable') {
	expect(answer.confirmed).toEqual([]);
	expect(answer.notConfirmed).toHaveLength(1);
	const [item] = answer.notConfirmed;
	expect(item.confirmation).toMatchObject({ status, reason: expect.any(String) });
	const message = status === 'contradicted' ? 'Event received but not confirmed by the ERP' : 'Event received but it cannot be confirmed';
	const reason = String((item.confirmation as IDataObject).reason);
	expect(LATER_READS.test(reason)).toBe(status === 'contradicted');
	expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { message, reason: reason.replace(LATER_READS, '') } });
	return item;
}

/** What the read before the answer said (the answer's reason; a contradicted item's adds how often it was read). */
const reasonOf = (item: IDataObject) => String((item.confirmation as IDataObject).reason).replace(LATER_READS, '');

/** A forged delivery, the record it names, what one read of it requests, and what the item must say. */
interface Forged {
	event: string;
	data: IDataObject;
	path: string;
	reads?: string[];
	reason: string;
	record?: unknown;
	stock?: IDataObject;
}

/** A delivery naming record `id` under `key`, which the ERP does not have. */
const missing = (event: string, noun: string, key: string, id: number): Forged => ({ event, data: { [key]: id }, path: `/${noun}s/${id}`, reason: `The ERP has no ${noun} ${id} (404)` });

describe('forged deliveries the ERP contradicts never reach Confirmed', () => {
	it('each, signed (the secret leaked), is answered 200 after one read and goes to Unconfirmed with the ERP’s reason; a 404 keeps no record', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		// A forged invoice.paid for an unpaid invoice: lateVisible.test.ts (never paid).
		const cases: Forged[] = [
			missing('contact.created', 'contact', 'id', 4241),
			missing('contact.updated', 'contact', 'contact_id', 4242),
			missing('employee.hired', 'employee', 'employee_id', 4243),
			missing('invoice.paid', 'invoice', 'invoice_id', 4244),
			missing('invoice.overdue', 'invoice', 'invoice_id', 4245),
			missing('product.low_stock', 'product', 'product_id', 4246),
			// A restocked product: contradicted by the same rule as the polling trigger’s, with the stock it read.
			{
				event: 'product.low_stock',
				data: { product_id: product.id, stock_total: 2 },
				path: `/products/${product.id}`,
				reads: [`GET /products/${product.id}`, `GET /products/${product.id}/stock`],
				reason: `The ERP shows product ${product.id} with a stock of 50, not below its threshold of 10`,
				record: expect.objectContaining({ id: product.id, stock_total: 50 }),
				stock: { total: 50, threshold: 10 },
			},
		];
		await h.start({ ...once, verification: 'hmacSha256' });
		await h.mark();

		const answers = await Promise.all(
			cases.map(async ({ event, data }) => {
				const body = JSON.stringify(delivery(event, data));
				return await h.post(body, { 'X-Erp-Signature': signature(body) });
			}),
		);
		for (const [i, { event, data, path, reads = [`GET ${path}`], reason, record, stock }] of cases.entries()) {
			const item = expectNotConfirmed(answers[i], 'contradicted');
			const { stock: stockRead } = item.confirmation as IDataObject;
			const seen = { event, reason: reasonOf(item), record: item.record, stock: stockRead, data: item.data, reads: await h.reads(path) };
			expect(seen).toEqual({ event, reason, record, stock, data, reads: readOn(reads) });
		}
	});

	it('invoice.overdue for a sent invoice past its due date that the ERP has not marked overdue yet: confirmed by the due date', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-1) });
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await h.start(once);

		const answer = await h.post(delivery('invoice.overdue', { invoice_id: invoice.id }));
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed' }, record: expect.objectContaining({ status: 'sent' }) })]);
	});
});

// Where the ID may be and what is no ID: steps.test.ts (recordIdOf); here, that none but an integer reaches a path.
describe('the record’s ID, wherever the delivery puts it', () => {
	const notAnInteger = (id: string) => `The delivery's data.invoice_id is ${id}, not an integer invoice ID, so the ERP cannot be asked about it`;
	it.each<[string, IDataObject, string]>([
		['no ID', { amount: 1, currency: 'EUR' }, 'The delivery names no invoice: its data has no invoice_id or id, so the ERP cannot be asked about it'],
		['the ID "INV-7"', { invoice_id: 'INV-7' }, notAnInteger('"INV-7"')],
		['the ID "../contacts/1"', { invoice_id: '../contacts/1' }, notAnInteger('"../contacts/1"')],
		['the ID {"id":7}', { invoice_id: { id: 7 } }, notAnInteger('{"id":7}')],
	])('a delivery with %s cannot be confirmed: Unconfirmed with the reason, without a request', async (_case, data, reason) => {
		await h.start(once);
		await h.mark();

		expect(reasonOf(expectNotConfirmed(await h.post(delivery('invoice.paid', data)), 'unconfirmable'))).toBe(reason);
		expect(await h.reads()).toEqual([]);
	});
});

describe('events outside the six, under All Events', () => {
	it('go to Unconfirmed by default (Events Not in the List: Send to Unconfirmed), without a request', async () => {
		await h.start(once);
		await h.mark();

		const item = expectNotConfirmed(await h.post(delivery('invoice.created', { invoice_id: 1 })), 'unconfirmable');
		expect(reasonOf(item)).toBe(
			'The ERP API has no way to confirm invoice.created: only contact.created, contact.updated, employee.hired, invoice.paid, invoice.overdue, product.low_stock can be confirmed',
		);
		expect(await h.reads()).toEqual([]);
	});

	it.each([
		['are answered 200 and start nothing with Events Not in the List: Ignore', { otherEvents: 'ignore' }, 'invoice.created', 'Event invoice.created cannot be confirmed by the ERP: ignored'],
		['an event not selected is ignored before any request, as in version 1', { events: ['invoice.paid'] }, 'contact.created', 'Event contact.created is not selected in this trigger: ignored'],
	])('%s', async (_title, parameters, event, message) => {
		await h.start({ ...once, ...parameters });
		await h.mark();

		const answer = await h.post(delivery(event, { id: 1 }));
		expect({ status: answer.status, body: answer.body, started: answer.call.workflowData }).toEqual({ status: 200, body: { message }, started: undefined });
		expect(await h.reads()).toEqual([]);
	});
});

describe('verification before confirmation', () => {
	it('a forged delivery without the signature is refused 401 before any request to the ERP', async () => {
		const contact = await createContact(sandbox.api);
		await h.start({ ...once, verification: 'hmacSha256' });
		await h.mark();

		const answer = await h.post(delivery('contact.created', { id: contact.id }));
		expect({ status: answer.status, started: answer.call.workflowData }).toEqual({ status: 401, started: undefined });
		expect(await h.reads()).toEqual([]);
	});
});

// With Confirm With the ERP off: version 1's one output and answer (eventKey.test.ts).
describe('the item', () => {
	it('with Output Data at Top Level: the data’s fields beside event, timestamp, deliveryKey, eventKey, confirmation and record, which win a name clash', async () => {
		const contact = await createContact(sandbox.api);
		await h.start({ ...once, options: { confirmationWait: 0, dataAtTopLevel: true } });

		const clash = { event: 'data-event', timestamp: 'data-time', deliveryKey: 'data-key', eventKey: 'data-event-key', confirmation: 'forged', record: 'forged' };
		const answer = await h.post(delivery('contact.updated', { id: contact.id, changed_fields: ['company'], ...clash }), { 'X-Erp-Delivery': 'd-7' });
		const envelope = { event: 'contact.updated', timestamp: '2026-11-28T10:00:00.000Z', deliveryKey: 'd-7', eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) };
		expect(answer.confirmed).toEqual([{ id: contact.id, changed_fields: ['company'], ...envelope, confirmation: { status: 'confirmed' }, record: contact }]);
	});
});
