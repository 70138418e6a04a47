import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import type { Contact, Invoice } from '../../sandbox/types';
import { createContact, createInvoice, daysFromToday, ISO_MS, todayUtc } from './fixtures';

let sandbox: TestSandbox;
let contact: Contact;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
	await sandbox.admin.reset();
	contact = await createContact(sandbox.api);
});

const get = async (id: number): Promise<Invoice> => (await sandbox.api.get(`/invoices/${id}`)).data.data;

describe('POST /invoices', () => {
	it('creates a draft with computed totals and the documented defaults', async () => {
		const response = await sandbox.api.post('/invoices', {
			contact_id: contact.id,
			lines: [
				{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 },
				{ description: 'Setup fee', unit_price: 100 },
			],
		});
		expect(response.status).toBe(201);
		const invoice = response.data.data;
		expect(invoice).toEqual({
			id: 1,
			number: 'INV-000001',
			contact_id: contact.id,
			status: 'draft',
			currency: 'EUR',
			issue_date: todayUtc(),
			due_date: daysFromToday(30),
			lines: [
				{ description: 'Consulting', quantity: 3, unit_price: 19.99, tax_rate: 19 },
				{ description: 'Setup fee', quantity: 1, unit_price: 100, tax_rate: 0 },
			],
			// 3 × 19.99 = 59.97 (+19% = 11.3943) and 100 (no tax).
			subtotal: 159.97,
			tax_total: 11.39,
			total: 171.36,
			amount_due: 171.36,
			notes: null,
			custom_fields: {},
			sent_at: null,
			paid_at: null,
			payment_method: null,
			payment_reference: null,
			created_at: expect.stringMatching(ISO_MS),
			updated_at: expect.stringMatching(ISO_MS),
		});
		expect(await get(invoice.id)).toEqual(invoice);
	});

	it('keeps given dates, currency, notes and custom fields', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id, {
			currency: 'USD',
			issue_date: '2026-01-10',
			due_date: '2026-01-24',
			notes: 'Net 14',
			custom_fields: { po_number: 'PO-77' },
		});
		expect(invoice).toMatchObject({ currency: 'USD', issue_date: '2026-01-10', due_date: '2026-01-24', notes: 'Net 14', custom_fields: { po_number: 'PO-77' } });
	});

	it('defaults the due date to issue date + 30 days', async () => {
		expect((await createInvoice(sandbox.api, contact.id, { issue_date: '2026-02-15' })).due_date).toBe('2026-03-17');
	});

	it('numbers invoices from their id', async () => {
		await createInvoice(sandbox.api, contact.id);
		expect((await createInvoice(sandbox.api, contact.id)).number).toBe('INV-000002');
	});

	it.each([
		['contact_id missing', { lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['is required'] }],
		['contact_id unknown', { contact_id: 999, lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['contact 999 does not exist'] }],
		['contact_id not an integer', { contact_id: '1', lines: [{ description: 'x', unit_price: 1 }] }, { contact_id: ['must be a number'] }],
		['lines missing', { contact_id: 1 }, { lines: ['is required'] }],
		['lines empty', { contact_id: 1, lines: [] }, { lines: ['must contain at least one line'] }],
		['lines not a list', { contact_id: 1, lines: { description: 'x' } }, { lines: ['must be a list of lines'] }],
		['a line not an object', { contact_id: 1, lines: ['x'] }, { 'lines[0]': ['must be an object'] }],
		['a line without description or price', { contact_id: 1, lines: [{ quantity: 1 }] }, { 'lines[0].description': ['is required'], 'lines[0].unit_price': ['is required'] }],
		['quantity 0', { contact_id: 1, lines: [{ description: 'x', unit_price: 1, quantity: 0 }] }, { 'lines[0].quantity': ['must be greater than 0'] }],
		['a negative price', { contact_id: 1, lines: [{ description: 'x', unit_price: -1 }] }, { 'lines[0].unit_price': ['must be at least 0'] }],
		['a price with 3 decimals', { contact_id: 1, lines: [{ description: 'x', unit_price: 1.234 }] }, { 'lines[0].unit_price': ['must have at most 2 decimals'] }],
		['tax_rate over 100', { contact_id: 1, lines: [{ description: 'x', unit_price: 1 }, { description: 'y', unit_price: 1, tax_rate: 101 }] }, { 'lines[1].tax_rate': ['must be at most 100'] }],
		['a lower-case currency', { contact_id: 1, currency: 'eur', lines: [{ description: 'x', unit_price: 1 }] }, { currency: [expect.stringContaining('ISO 4217')] }],
		['an impossible date', { contact_id: 1, issue_date: '2026-02-30', lines: [{ description: 'x', unit_price: 1 }] }, { issue_date: ['must be a date in the form YYYY-MM-DD'] }],
		['due before issue', { contact_id: 1, issue_date: '2026-03-10', due_date: '2026-03-09', lines: [{ description: 'x', unit_price: 1 }] }, { due_date: ['must not be before issue_date'] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/invoices', body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
		expect(await sandbox.admin.records('invoices')).toEqual([]);
	});

	it('has no update or delete endpoint', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		expect((await sandbox.api.put(`/invoices/${invoice.id}`, { notes: 'x' })).status).toBe(404);
		expect((await sandbox.api.delete(`/invoices/${invoice.id}`)).status).toBe(404);
	});

	it('answers 404 for an unknown invoice on get, send and mark-paid', async () => {
		expect((await sandbox.api.get('/invoices/77')).status).toBe(404);
		expect((await sandbox.api.post('/invoices/77/send')).status).toBe(404);
		expect((await sandbox.api.post('/invoices/77/mark-paid')).status).toBe(404);
	});
});

describe('POST /invoices/{id}/send', () => {
	it('turns a draft into sent and sets sent_at', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
		expect(response.status).toBe(200);
		expect(response.data.data).toEqual({ ...invoice, status: 'sent', sent_at: expect.stringMatching(ISO_MS), updated_at: expect.stringMatching(ISO_MS) });
		expect(await get(invoice.id)).toEqual(response.data.data);
	});

	it('keeps sent (a reminder) and overdue, refreshing sent_at', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
		const first = (await sandbox.api.post(`/invoices/${invoice.id}/send`)).data.data;
		await new Promise((resolve) => setTimeout(resolve, 5));
		const again = (await sandbox.api.post(`/invoices/${invoice.id}/send`)).data.data;
		expect(again.status).toBe('sent');
		expect(again.sent_at > first.sent_at).toBe(true);
		await sandbox.admin.sweep();
		const reminder = await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		expect(reminder.status).toBe(200);
		expect(reminder.data.data.status).toBe('overdue');
	});

	it('answers 422 for a paid invoice', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ status: ['invoice is already paid'] });
		expect((await get(invoice.id)).status).toBe('paid');
	});

	it('needs a recipient: 422 when the contact has no e-mail and none is given', async () => {
		const silent = await createContact(sandbox.api, { email: null });
		const invoice = await createInvoice(sandbox.api, silent.id);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/send`);
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields)).toEqual(['email']);
		expect((await get(invoice.id)).status).toBe('draft');
		const sent = await sandbox.api.post(`/invoices/${invoice.id}/send`, { email: 'billing@example.com' });
		expect(sent.status).toBe(200);
		expect(sent.data.data.status).toBe('sent');
	});

	it('answers 422 for a malformed recipient address', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/send`, { email: 'not-an-address' });
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields)).toEqual(['email']);
	});
});

describe('POST /invoices/{id}/mark-paid', () => {
	it('marks any unpaid state paid: paid_at now, amount_due 0', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		const before = new Date().toISOString();
		const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`);
		expect(response.status).toBe(200);
		const paid = response.data.data;
		expect(paid).toEqual({
			...invoice,
			status: 'paid',
			amount_due: 0,
			paid_at: expect.stringMatching(ISO_MS),
			updated_at: expect.stringMatching(ISO_MS),
		});
		expect(paid.paid_at >= before).toBe(true);
		expect(paid.total).toBe(invoice.total);
	});

	it('stores the given paid_at (normalised to UTC), method and reference', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {
			paid_at: '2025-01-05T10:00:00+01:00',
			payment_method: 'bank_transfer',
			reference: 'TRX-123',
		});
		expect(response.data.data).toMatchObject({ status: 'paid', paid_at: '2025-01-05T09:00:00.000Z', payment_method: 'bank_transfer', payment_reference: 'TRX-123' });
	});

	it.each([
		['a future paid_at', { paid_at: '2999-01-01T00:00:00Z' }, 'paid_at'],
		['a malformed paid_at', { paid_at: 'last tuesday' }, 'paid_at'],
		['an unknown payment method', { payment_method: 'barter' }, 'payment_method'],
	])('answers 422 for %s', async (_name, body, field) => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, body);
		expect(response.status).toBe(422);
		expect(Object.keys(response.data.error.fields)).toEqual([field]);
		expect((await get(invoice.id)).status).toBe('draft');
	});

	it('answers 422 when already paid', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		const first = (await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data;
		const response = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`);
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ status: ['invoice is already paid'] });
		expect(await get(invoice.id)).toEqual(first);
	});

	it('pays an overdue invoice', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		await sandbox.admin.sweep();
		expect((await get(invoice.id)).status).toBe('overdue');
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`)).data.data.status).toBe('paid');
	});
});

describe('overdue sweep', () => {
	it('turns sent invoices due before today into overdue, and nothing else', async () => {
		const past = { issue_date: daysFromToday(-40), due_date: daysFromToday(-1) };
		const sentLate = await createInvoice(sandbox.api, contact.id, past);
		const sentDueToday = await createInvoice(sandbox.api, contact.id, { issue_date: daysFromToday(-30), due_date: todayUtc() });
		const draftLate = await createInvoice(sandbox.api, contact.id, past);
		const paidLate = await createInvoice(sandbox.api, contact.id, past);
		for (const invoice of [sentLate, sentDueToday]) await sandbox.api.post(`/invoices/${invoice.id}/send`);
		await sandbox.api.post(`/invoices/${paidLate.id}/send`);
		await sandbox.api.post(`/invoices/${paidLate.id}/mark-paid`);

		expect(await sandbox.admin.sweep()).toEqual({ overdue: [sentLate.id] });
		expect((await get(sentLate.id)).status).toBe('overdue');
		expect((await get(sentDueToday.id)).status).toBe('sent');
		expect((await get(draftLate.id)).status).toBe('draft');
		expect((await get(paidLate.id)).status).toBe('paid');
		expect(await sandbox.admin.sweep()).toEqual({ overdue: [] });
	});

	it('sweeps as of a given day', async () => {
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`);
		expect(await sandbox.admin.sweep(invoice.due_date)).toEqual({ overdue: [] });
		expect(await sandbox.admin.sweep(daysFromToday(31))).toEqual({ overdue: [invoice.id] });
		expect((await get(invoice.id)).status).toBe('overdue');
	});

	it('runs on a timer', async () => {
		const timed = await startTestSandbox({ overdueSweepMs: 20 });
		try {
			const owner = await createContact(timed.api);
			const invoice = await createInvoice(timed.api, owner.id, { issue_date: daysFromToday(-40), due_date: daysFromToday(-10) });
			await timed.api.post(`/invoices/${invoice.id}/send`);
			const overdue = await waitForStatus(timed, invoice.id, 'overdue');
			expect(overdue.amount_due).toBe(invoice.total);
		} finally {
			await timed.close();
		}
	});
});

async function waitForStatus(target: TestSandbox, id: number, status: string): Promise<Invoice> {
	for (let i = 0; i < 500; i++) {
		const invoice: Invoice = (await target.api.get(`/invoices/${id}`)).data.data;
		if (invoice.status === status) return invoice;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`invoice ${id} never became ${status}`);
}

describe('GET /invoices filters and sort', () => {
	async function mixed() {
		const other = await createContact(sandbox.api, { first_name: 'Ben' });
		const a = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-31', currency: 'EUR' });
		const b = await createInvoice(sandbox.api, other.id, { issue_date: '2026-01-01', due_date: '2026-02-15', currency: 'USD' });
		const c = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-10', currency: 'EUR' });
		await sandbox.api.post(`/invoices/${b.id}/send`);
		await sandbox.api.post(`/invoices/${c.id}/mark-paid`);
		return { other, a, b, c };
	}
	const ids = async (query: string) => (await sandbox.api.get(`/invoices?${query}`)).data.data.map((i: Invoice) => i.id);

	it('filters by status, contact_id and currency', async () => {
		const { other, a, b, c } = await mixed();
		expect(await ids('status=draft')).toEqual([a.id]);
		expect(await ids('status=sent')).toEqual([b.id]);
		expect(await ids('status=paid')).toEqual([c.id]);
		expect(await ids(`contact_id=${contact.id}`)).toEqual([a.id, c.id]);
		expect(await ids(`contact_id=${other.id}&status=sent`)).toEqual([b.id]);
		expect(await ids('currency=USD')).toEqual([b.id]);
	});

	it('due_before and due_after are inclusive dates', async () => {
		const { a, b, c } = await mixed();
		expect(await ids('due_before=2026-01-31')).toEqual([a.id, c.id]);
		expect(await ids('due_after=2026-01-31')).toEqual([a.id, b.id]);
		expect(await ids('due_after=2026-01-10&due_before=2026-01-10')).toEqual([c.id]);
	});

	it('search matches the invoice number', async () => {
		const { b } = await mixed();
		expect(await ids(`search=${b.number.toLowerCase()}`)).toEqual([b.id]);
		expect(await ids('search=INV-0000')).toHaveLength(3);
	});

	it('sorts by due_date either way', async () => {
		const { a, b, c } = await mixed();
		expect(await ids('sort=due_date')).toEqual([c.id, a.id, b.id]);
		expect(await ids('sort=-due_date')).toEqual([b.id, a.id, c.id]);
	});

	it.each(['contact_id=abc', 'due_before=31.01.2026', 'due_after=2026-02-30', 'sort=total'])('answers 400 for %s', async (query) => {
		expect((await sandbox.api.get(`/invoices?${query}`)).status).toBe(400);
	});
});
