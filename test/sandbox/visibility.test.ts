import { useTestSandbox, waitFor } from '../../tooling/harness/sandbox';
import { createContact, createInvoice } from './fixtures';

const sandbox = useTestSandbox();

/** Long enough never to pass during a test: what was written stays invisible until the faults are cleared. */
const LONG = 600_000;

const status = async (path: string) => (await sandbox.api.get(path)).status;
const read = async (path: string) => (await sandbox.api.get(path)).data.data;

describe('the not-yet-visible fault (visibleAfterMs)', () => {
	it('is off by default and set like every random fault', async () => {
		expect((await sandbox.admin.faults()).visibleAfterMs).toBe(0);
		expect((await sandbox.admin.setFaults({ visibleAfterMs: 1500 })).visibleAfterMs).toBe(1500);
		const refused = await fetch(`${sandbox.url}/__sandbox/faults`, {
			method: 'PUT',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ visibleAfterMs: -1 }),
		});
		expect(refused.status).toBe(422);
		expect((await sandbox.admin.clearFaults()).visibleAfterMs).toBe(0);
	});

	it('a new record is 404 and missing from lists until the delay has passed; the write answers it at once', async () => {
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		const created = await sandbox.api.post('/contacts', { first_name: 'Late' });
		expect(created.status).toBe(201);
		expect(created.data.data.first_name).toBe('Late');
		const { id } = created.data.data as { id: number };
		expect(await status(`/contacts/${id}`)).toBe(404);
		expect((await sandbox.api.get(`/contacts/${id}`)).data.error.message).toBe(`Contact ${id} not found`);
		expect(await read('/contacts')).toEqual([]);
		expect((await sandbox.admin.records('contacts')).map((c) => c.id)).toEqual([id]);
		await sandbox.admin.clearFaults();
		expect((await read(`/contacts/${id}`)).first_name).toBe('Late');
	});

	it('becomes visible by itself once the delay has passed since the write', async () => {
		await sandbox.admin.setFaults({ visibleAfterMs: 200 });
		const { id } = (await sandbox.api.post('/employees', { first_name: 'Mia', last_name: 'Roth', email: 'mia@example.com' })).data.data;
		await waitFor(async () => (await status(`/employees/${id}`)) === 200, 5000);
		expect((await read('/employees')).map((e: { id: number }) => e.id)).toEqual([id]);
	});

	it('a changed record reads as before (GET one and lists) until the delay has passed', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		const paid = await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {});
		expect(paid.data.data.status).toBe('paid');
		expect((await read(`/invoices/${invoice.id}`)).status).toBe('sent');
		expect((await read('/invoices')).map((i: { status: string }) => i.status)).toEqual(['sent']);
		expect(await read('/invoices?status=paid')).toEqual([]);
		expect((await sandbox.admin.record('invoices', invoice.id))?.status).toBe('paid');
		await sandbox.admin.clearFaults();
		expect((await read(`/invoices/${invoice.id}`)).status).toBe('paid');
	});

	it('writes see the current state: a second mark-paid is refused although reads still show the invoice unpaid', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id);
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {})).status).toBe(200);
		expect((await read(`/invoices/${invoice.id}`)).status).toBe('sent');
		expect((await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, {})).status).toBe(422);
	});

	it('two writes in a row: readers keep the state before the first until the delay after the second', async () => {
		const contact = await createContact(sandbox.api, { first_name: 'One' });
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		await sandbox.api.put(`/contacts/${contact.id}`, { first_name: 'Two' });
		await sandbox.api.put(`/contacts/${contact.id}`, { first_name: 'Three' });
		expect((await read(`/contacts/${contact.id}`)).first_name).toBe('One');
		await sandbox.admin.clearFaults();
		expect((await read(`/contacts/${contact.id}`)).first_name).toBe('Three');
	});

	it('a failed write makes nothing lag; records the write did not touch read as they are', async () => {
		const first = await createContact(sandbox.api, { first_name: 'First' });
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		expect((await sandbox.api.put(`/contacts/${first.id}`, { email: 'not-an-email' })).status).toBe(422);
		expect((await sandbox.api.post('/contacts', {})).status).toBe(422);
		expect((await read(`/contacts/${first.id}`)).first_name).toBe('First');
		await sandbox.admin.setFaults({ visibleAfterMs: 0 });
		const second = await createContact(sandbox.api, { first_name: 'Second' });
		expect((await read('/contacts')).map((c: { id: number }) => c.id)).toEqual([first.id, second.id]);
	});

	it('the overdue sweep: the invoice reads as sent until the delay has passed', async () => {
		const contact = await createContact(sandbox.api);
		const invoice = await createInvoice(sandbox.api, contact.id, { issue_date: '2026-01-01', due_date: '2026-01-10' });
		await sandbox.api.post(`/invoices/${invoice.id}/send`, {});
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		expect((await sandbox.admin.sweep('2026-02-01')).overdue).toEqual([invoice.id]);
		expect((await read(`/invoices/${invoice.id}`)).status).toBe('sent');
		await sandbox.admin.clearFaults();
		expect((await read(`/invoices/${invoice.id}`)).status).toBe('overdue');
	});

	it('a delete: the record still reads until the delay has passed', async () => {
		const contact = await createContact(sandbox.api);
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		expect((await sandbox.api.delete(`/contacts/${contact.id}`)).status).toBe(200);
		expect(await status(`/contacts/${contact.id}`)).toBe(200);
		await sandbox.admin.clearFaults();
		expect(await status(`/contacts/${contact.id}`)).toBe(404);
	});

	it('a reset makes everything visible and the fault off', async () => {
		await sandbox.admin.setFaults({ visibleAfterMs: LONG });
		const { id } = (await sandbox.api.post('/contacts', { first_name: 'Gone' })).data.data;
		await sandbox.admin.reset();
		expect((await sandbox.admin.faults()).visibleAfterMs).toBe(0);
		expect(await status(`/contacts/${id}`)).toBe(404);
	});
});
