import type { Invoice } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { calls, runErp } from '../../tooling/host/runErp';
import { connect, type Session } from '../../tooling/host/session';
import { byId } from '../../tooling/host/workflows';

describe('ERP node › Invoice, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	const draftInvoice = async () => {
		const [contact] = await session.sandbox.records('contacts');
		return await erpApi<Invoice>(session.ctx, 'POST', '/invoices', {
			contact_id: contact.id,
			lines: [{ description: 'Workshop day', unit_price: 950, tax_rate: 19 }],
		});
	};

	test('Create: line items become an invoice the ERP totals itself', async () => {
		const contact = (await session.sandbox.records('contacts'))[1];
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: {
				line: [
					{ description: 'Oak standing desk', quantity: 2, unitPrice: 480, taxRate: 19 },
					{ description: 'Delivery and assembly', quantity: 1, unitPrice: 60, taxRate: 19 },
				],
			},
			additionalFields: { notes: 'PO 4711', currency: 'EUR' },
		});

		expect(calls(run)).toEqual(['POST /invoices 201']);
		const stored = await session.sandbox.record('invoices', run.items[0].id as number);
		expect(stored).toMatchObject({
			contact_id: contact.id,
			status: 'draft',
			currency: 'EUR',
			notes: 'PO 4711',
			lines: [
				{ description: 'Oak standing desk', quantity: 2, unit_price: 480, tax_rate: 19 },
				{ description: 'Delivery and assembly', quantity: 1, unit_price: 60, tax_rate: 19 },
			],
			subtotal: 1020,
			tax_total: 193.8,
			total: 1213.8,
		});
		expect(run.items).toEqual([stored]);
	});

	test('Get: outputs the invoice exactly as the ERP holds it', async () => {
		const invoice = (await session.sandbox.records('invoices'))[5];
		const run = await runErp(session, { resource: 'invoice', operation: 'get', invoiceId: byId(invoice.id) });

		expect(calls(run)).toEqual([`GET /invoices/${invoice.id} 200`]);
		expect(run.items).toEqual([invoice]);
	});

	test('Get Many: the Overdue filter with Return All returns every overdue invoice of the ERP', async () => {
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'overdue' },
		});
		const overdue = (await session.sandbox.records('invoices')).filter((i) => i.status === 'overdue');

		expect(overdue.length).toBeGreaterThan(1);
		expect(run.requests.map((r) => [r.path, r.query.status, r.status])).toEqual([['/invoices', 'overdue', 200]]);
		expect(run.items).toEqual(overdue);
	});

	test('Send: a draft invoice is sent by the ERP', async () => {
		const draft = await draftInvoice();
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'send',
			invoiceId: byId(draft.id),
			additionalFields: { email: 'accounts@example.com' },
		});

		expect(calls(run)).toEqual([`POST /invoices/${draft.id}/send 200`]);
		expect(run.requests[0].body).toEqual({ email: 'accounts@example.com' });
		const after = await session.sandbox.record('invoices', draft.id);
		expect(after).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
		expect(run.items).toEqual([after]);
	});

	test('Mark as Paid: the ERP records the payment and nothing is due any more', async () => {
		const unpaid = (await session.sandbox.records('invoices')).find((i) => i.status === 'sent' || i.status === 'overdue');
		if (!unpaid) throw new Error('the seeded sandbox has no unpaid invoice');
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'markPaid',
			invoiceId: byId(unpaid.id),
			additionalFields: { paymentMethod: 'card', reference: 'STRIPE-ch_3PqX' },
		});

		expect(calls(run)).toEqual([`POST /invoices/${unpaid.id}/mark-paid 200`]);
		expect(run.requests[0].body).toEqual({ payment_method: 'card', reference: 'STRIPE-ch_3PqX' });
		const after = await session.sandbox.record('invoices', unpaid.id);
		expect(after).toMatchObject({
			status: 'paid',
			amount_due: 0,
			total: unpaid.total,
			payment_method: 'card',
			payment_reference: 'STRIPE-ch_3PqX',
			paid_at: expect.any(String),
		});
		expect(run.items).toEqual([after]);
	});
});
