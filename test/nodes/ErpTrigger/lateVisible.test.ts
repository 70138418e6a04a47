import type { FaultSpec } from '../../../sandbox/faults';
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

describe('contradicted until the answer is due: answered 200 then, read on until 10 s after the delivery came (four deliveries side by side)', () => {
	it('a real one shown late goes to Confirmed once; a forged one to Unconfirmed after the bounded reads; a later read that fails or gets no turn ends the reading', async () => {
		const [shownLate, neverPaid, failsLater, heldLater] = await Promise.all(Array.from({ length: 4 }, unpaidInvoice));
		// Its own token: the 429 below holds this ERP and token's requests for 30 s.
		const limited = await h.start({}, { credentials: { apiToken: DEFAULT_READONLY_TOKEN } });
		const forged = await h.start();
		const real = await h.start();
		await sandbox.admin.addWebhook({ url: real.url, secret: SECRET });
		await sandbox.admin.setFaults({ visibleAfterMs: 5_000 });
		await h.mark();
		const posted = [h.post(forgedPaid(neverPaid), {}, forged), h.post(forgedPaid(failsLater), {}, forged), h.post(forgedPaid(heldLater), {}, limited)];
		await sandbox.api.post(`/invoices/${shownLate.id}/mark-paid`, { payment_method: 'card' });
		// The three reads within the wait succeed (the third at 1.5 s, the next due at 3.5 s); from then on, the ERP fails.
		const afterThreeReads = async ({ id }: { id: number }, fault: FaultSpec) => {
			await waitFor(async () => (await h.reads(`/invoices/${id}`)).length === 3, 10_000);
			await sandbox.admin.queueFault({ match: { method: 'GET', path: `/invoices/${id}` }, fault, times: fault.kind === 'status' ? 1000 : 1 });
		};
		await Promise.all([afterThreeReads(failsLater, { kind: 'status', status: 500 }), afterThreeReads(heldLater, { kind: 'rateLimit', retryAfter: 30 })]);
		const [late, never, fails, held] = [await h.delivered(), ...(await Promise.all(posted))];

		for (const [answer, { id }] of [[late, shownLate], [never, neverPaid], [fails, failsLater], [held, heldLater]] as const) {
			expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { message: NOT_CONFIRMED, reason: expect.stringMatching(notPaid(id, 3)) } });
		}
		// Shown as paid 5 s after the delivery: the workflow starts once, on Confirmed, with the paid invoice.
		expect({ confirmed: late.confirmed, notConfirmed: late.notConfirmed }).toEqual({
			confirmed: [expect.objectContaining({ confirmation: { status: 'confirmed' }, record: expect.objectContaining({ id: shownLate.id, status: 'paid' }) })],
			notConfirmed: [],
		});
		const lateReads = (await sandbox.admin.requests()).filter((request) => request.method === 'GET' && request.path === `/invoices/${shownLate.id}`);
		expect(lateReads).toHaveLength(READS);
		// Answered before the reads after the wait, and once only: the ERP does not send it again.
		expect(Date.parse(lateReads[3].at)).toBeGreaterThanOrEqual(late.call.answeredAt);
		expect((await h.ended()).map((delivery) => delivery.attempts.map((attempt) => attempt.status))).toEqual([[200]]);
		expect(real.calls).toHaveLength(1);

		// Never paid: Unconfirmed as contradicted, after exactly the bounded number of reads.
		expect({ confirmed: never.confirmed, notConfirmed: never.notConfirmed }).toEqual({
			confirmed: [],
			notConfirmed: [expect.objectContaining({ confirmation: { status: 'contradicted', reason: expect.stringMatching(notPaid(neverPaid.id, READS)) }, record: expect.objectContaining({ status: 'draft' }) })],
		});
		expect(await h.reads(`/invoices/${neverPaid.id}`)).toEqual(Array(READS).fill(`GET /invoices/${neverPaid.id}`));

		// A read after the answer that fails: could not confirm, the reason saying the ERP will not send it again.
		const answeredBefore = `\\(the ERP was answered 200 before this later read, so it will not send the event again\\)`;
		const failed = new RegExp(`^Reading invoice ${failsLater.id} from the ERP failed: The ERP failed with a server error \\(500\\) after \\d+ retr.* ${answeredBefore}$`);
		expect({ confirmed: fails.confirmed, notConfirmed: fails.notConfirmed }).toEqual({ confirmed: [], notConfirmed: [expect.objectContaining({ confirmation: { status: 'couldNotConfirm', reason: expect.stringMatching(failed) } })] });
		expect(fails.notConfirmed[0]).not.toHaveProperty('record');

		// A 429 naming 30 s leaves the read at 3.5 s no turn within the 10 s: the reading ends, contradicted, none at 7.5 s.
		expect({ confirmed: held.confirmed, notConfirmed: held.notConfirmed }).toEqual({
			confirmed: [],
			notConfirmed: [expect.objectContaining({ confirmation: { status: 'contradicted', reason: expect.stringMatching(notPaid(heldLater.id, 3)) } })],
		});
		expect(await h.reads(`/invoices/${heldLater.id}`)).toEqual(Array(4).fill(`GET /invoices/${heldLater.id}`));
	});
});
