import type { IDataObject } from 'n8n-workflow';

import { DEFAULT_READONLY_TOKEN } from '../../../sandbox/server';
import { waitFor } from '../../../tooling/harness/sandbox';
import { createContact, createInvoice } from '../../sandbox/fixtures';
import { SECRET, useTriggerHarness } from './harness';

// ERP Trigger version 2 at its defaults (Confirmation Wait 3 s) and a record the ERP's API shows late (the sandbox's
// not-yet-visible fault): contradicted until the answer is due, the ERP is answered 200 then, and the record is read on
// until 10 s after the delivery came, so the workflow starts once, on what those later reads came to. The reads start
// at 0, 0.5 and 1.5 s (within the wait), then 3.5 and 7.5 s; the next, at 15.5 s, is past the 10 s.

const h = useTriggerHarness();
const { sandbox } = h;
const READS = 5;
const NOT_CONFIRMED = 'Event received but not confirmed by the ERP';

const unpaidInvoice = async () => await createInvoice(sandbox.api, (await createContact(sandbox.api)).id);
const forgedPaid = (invoice: { id: number }) => ({ event: 'invoice.paid', timestamp: '2026-12-02T10:00:00.000Z', data: { invoice_id: invoice.id, amount: 1, currency: 'EUR' } });
const notPaid = (id: number, reads: number) => new RegExp(`^The ERP shows invoice ${id} as not paid \\(status "draft"\\), read ${reads} times over \\d+(\\.\\d)? s$`);

describe('a real event the ERP’s API shows a few seconds late', () => {
	it('invoice.paid shown as paid 5 s after the delivery: answered 200 when the wait ends, then the workflow starts once, on Confirmed, with the paid invoice', async () => {
		const invoice = await unpaidInvoice();
		const trigger = await h.start();
		await sandbox.admin.addWebhook({ url: trigger.url, secret: SECRET });
		await sandbox.admin.setFaults({ visibleAfterMs: 5_000 });
		await h.mark();
		await sandbox.api.post(`/invoices/${invoice.id}/mark-paid`, { payment_method: 'card' });

		const answer = await h.delivered();
		expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { message: NOT_CONFIRMED, reason: expect.stringMatching(notPaid(invoice.id, 3)) } });
		expect(answer.notConfirmed).toEqual([]);
		expect(answer.confirmed).toEqual([expect.objectContaining({ confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id: invoice.id, status: 'paid' }) })]);
		const reads = (await sandbox.admin.requests()).filter((request) => request.method === 'GET' && request.path === `/invoices/${invoice.id}`);
		expect(reads).toHaveLength(READS);
		// Answered before the reads after the wait, and once only: the ERP does not send it again.
		expect(Date.parse(reads[3].at)).toBeGreaterThanOrEqual(answer.call.answeredAt);
		const [delivery] = await h.ended();
		expect(delivery.attempts.map((attempt) => attempt.status)).toEqual([200]);
		expect(trigger.calls).toHaveLength(1);
	});
});

describe('a forged event the ERP never bears out', () => {
	it('invoice.paid for an invoice never paid: Not Confirmed as contradicted, after exactly the bounded number of reads', async () => {
		const invoice = await unpaidInvoice();
		await h.start();
		await h.mark();

		const answer = await h.post(forgedPaid(invoice));
		expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { message: NOT_CONFIRMED, reason: expect.stringMatching(notPaid(invoice.id, 3)) } });
		expect(answer.confirmed).toEqual([]);
		expect(answer.notConfirmed).toEqual([
			expect.objectContaining({ confirmation: { status: 'contradicted', reason: expect.stringMatching(notPaid(invoice.id, READS)) }, record: expect.objectContaining({ status: 'draft' }) }),
		]);
		expect(await h.reads()).toEqual(Array(READS).fill(`GET /invoices/${invoice.id}`));
	});

	it('a read after the answer that fails: Not Confirmed as could not confirm, the reason saying the ERP will not send it again', async () => {
		const invoice = await unpaidInvoice();
		await h.start();
		await h.mark();

		const posted = h.post(forgedPaid(invoice));
		// The three reads within the wait succeed (the third at 1.5 s, the next due at 3.5 s); from then on, the ERP fails.
		await waitFor(async () => (await h.reads()).length === 3, 10_000);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: `/invoices/${invoice.id}` }, fault: { kind: 'status', status: 500 }, times: 1000 });
		const answer = await posted;

		expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { message: NOT_CONFIRMED, reason: expect.stringMatching(notPaid(invoice.id, 3)) } });
		expect(answer.confirmed).toEqual([]);
		expect(answer.notConfirmed).toHaveLength(1);
		const [item] = answer.notConfirmed;
		expect(item).not.toHaveProperty('record');
		expect(item.confirmation as IDataObject).toEqual({
			status: 'couldNotConfirm',
			reason: expect.stringMatching(
				new RegExp(
					`^Reading invoice ${invoice.id} from the ERP failed: The ERP failed with a server error \\(500\\) after \\d+ retr.* \\(the ERP was answered 200 before this later read, so it will not send the event again\\)$`,
				),
			),
		});
	});

	it('a read after the answer the ERP’s rate limit leaves no turn within the 10 s (a 429 naming 30 s): the reading ends, Not Confirmed as contradicted', async () => {
		const invoice = await unpaidInvoice();
		// Its own token: the 429 holds this ERP and token's requests for 30 s.
		await h.start({}, { credentials: { apiToken: DEFAULT_READONLY_TOKEN } });
		await h.mark();

		const posted = h.post(forgedPaid(invoice));
		await waitFor(async () => (await h.reads()).length === 3, 10_000);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: `/invoices/${invoice.id}` }, fault: { kind: 'rateLimit', retryAfter: 30 } });
		const answer = await posted;

		expect(answer.confirmed).toEqual([]);
		expect(answer.notConfirmed).toEqual([expect.objectContaining({ confirmation: { status: 'contradicted', reason: expect.stringMatching(notPaid(invoice.id, 3)) } })]);
		// The read at 3.5 s met the 429; none at 7.5 s.
		expect(await h.reads()).toEqual(Array(4).fill(`GET /invoices/${invoice.id}`));
	});
});
