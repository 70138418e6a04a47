import { useErpHarness, byId, jsonOf } from './setup';

const h = useErpHarness({ contacts: 3 });

async function firstContact() {
	return (await h.sandbox.admin.records('contacts'))[0];
}

// Due a year after today's UTC date (the sandbox's issue date), on whatever day and in whatever zone the suite runs.
const dueDay = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe('Invoice', () => {
	it('creates an invoice from line items; the ERP computes the totals', async () => {
		const contact = await firstContact();
		const due = dueDay();
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: {
				line: [
					{ description: 'Consulting', quantity: 3, unitPrice: 120, taxRate: 19 },
					{ description: 'Travel', quantity: 1, unitPrice: 80.5, taxRate: 0 },
				],
			},
			additionalFields: { currency: 'USD', dueDate: `${due}T00:00:00`, notes: 'Thanks' },
		});
		expect(result.error).toBeUndefined();
		const [invoice] = await h.sandbox.admin.records('invoices');
		expect(invoice).toMatchObject({ contact_id: contact.id, currency: 'USD', due_date: due, status: 'draft', notes: 'Thanks' });
		expect(invoice.lines).toHaveLength(2);
		expect(jsonOf(result)).toEqual([invoice]);
		const [request] = await h.requests();
		expect(request.body).toEqual({
			contact_id: contact.id,
			currency: 'USD',
			due_date: due,
			notes: 'Thanks',
			lines: [
				{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 19 },
				{ description: 'Travel', quantity: 1, unit_price: 80.5, tax_rate: 0 },
			],
		});
	});

	it('outputs what was sent, lines included, under an answer that holds less (the answer wins a clash)', async () => {
		const contact = await firstContact();
		await h.sandbox.admin.queueFault({
			match: { method: 'POST', path: '/invoices' },
			fault: { kind: 'status', status: 201, body: { success: true, data: { id: 501, number: 'INV-000501', currency: 'EUR' } }, afterCommit: true },
		});
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Consulting', quantity: 3, unitPrice: 120, taxRate: 19 }] },
			additionalFields: { currency: 'USD' },
		});
		expect(jsonOf(result)).toEqual([
			{
				id: 501,
				number: 'INV-000501',
				currency: 'EUR',
				contact_id: contact.id,
				lines: [{ description: 'Consulting', quantity: 3, unit_price: 120, tax_rate: 19 }],
			},
		]);
		expect((await h.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /invoices']);
	});

	it('takes the lines from Extra Fields (JSON) when Line Items is empty', async () => {
		const contact = await firstContact();
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			additionalFields: { extraFields: { lines: [{ description: 'Widget', quantity: 2, unit_price: 10 }] } },
		});
		expect(result.error).toBeUndefined();
		expect((await h.sandbox.admin.records('invoices'))[0].lines).toHaveLength(1);
	});

	it('leaves the rules for lines to the ERP: an invoice without lines, or a negative quantity, is its 422', async () => {
		const contact = await firstContact();
		const none = await h.run({ resource: 'invoice', operation: 'create', contactId: byId(contact.id) });
		expect(none.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): lines: /);
		const negative = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'Consulting', quantity: -1, unitPrice: 10 }] },
		});
		expect(negative.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): lines\[0\]\.quantity: /);
		expect((await h.requests()).map((r) => r.status)).toEqual([422, 422]);
		expect(await h.sandbox.admin.records('invoices')).toEqual([]);
	});

	it('shows the ERP field messages when it refuses an invoice (unknown contact)', async () => {
		const result = await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(999),
			lineItems: { line: [{ description: 'X', quantity: 1, unitPrice: 1 }] },
		});
		expect(result.error?.message).toMatch(/^The ERP refused to create the invoice \(422\): contact_id: /);
	});

	it('sends an invoice and marks it paid; a second mark-paid is refused with the reason', async () => {
		const contact = await firstContact();
		await h.run({
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: { line: [{ description: 'X', quantity: 1, unitPrice: 50 }] },
		});
		const [draft] = await h.sandbox.admin.records('invoices');

		const sent = await h.run({ resource: 'invoice', operation: 'send', invoiceId: byId(draft.id), additionalFields: { email: 'billing@example.com' } });
		expect(jsonOf(sent)[0]).toMatchObject({ id: draft.id, status: 'sent' });
		expect((await h.sandbox.admin.records('invoices'))[0].status).toBe('sent');

		const paid = await h.run({
			resource: 'invoice',
			operation: 'markPaid',
			invoiceId: byId(draft.id),
			additionalFields: { paymentMethod: 'card', reference: 'TX-1' },
		});
		const [stored] = await h.sandbox.admin.records('invoices');
		expect(stored).toMatchObject({ status: 'paid', amount_due: 0, payment_method: 'card', payment_reference: 'TX-1' });
		expect(jsonOf(paid)).toEqual([stored]);

		const again = await h.run({ resource: 'invoice', operation: 'markPaid', invoiceId: byId(draft.id) });
		expect(again.error?.message).toMatch(/^The ERP refused to mark invoice \d+ as paid \(422\): /);
	});

	it('gets one invoice and lists invoices by status', async () => {
		await h.sandbox.admin.seed({ invoices: 40 });
		const invoices = await h.sandbox.admin.records('invoices');
		const one = await h.run({ resource: 'invoice', operation: 'get', invoiceId: byId(invoices[5].id) });
		expect(jsonOf(one)).toEqual([invoices[5]]);

		const paid = await h.run({ resource: 'invoice', operation: 'getAll', returnAll: true, filters: { status: 'paid' } });
		const expected = invoices.filter((i) => i.status === 'paid');
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(paid)).toEqual(expected);
	});
});
