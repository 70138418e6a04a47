import { waitFor } from '../../../../tooling/harness/sandbox';
import { byId, createWith, useErpHarness } from './setup';

const h = useErpHarness();

const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });
const posts = async () => (await h.requests()).filter((r) => r.method === 'POST');

describe('no duplicated writes under faults (the sandbox request log is the witness)', () => {
	it.each([
		['a 500', { kind: 'status' as const, status: 500, afterCommit: true }],
		['a dropped connection', { kind: 'drop' as const, afterCommit: true }],
	])('%s after the ERP saved the contact: one POST, one contact, found by a lookup and marked recovered', async (_what, fault) => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault });
		const result = await h.run(create, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(result.error).toBeUndefined();
		const stored = await h.sandbox.admin.records('contacts');
		expect(stored).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ id: stored[0].id, email: 'ada@example.com', recovered: true });
		expect(await posts()).toHaveLength(1);
	});

	it('a slow answer past the timeout: one POST, and the error says how long it waited', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'latency', delayMs: 1500 } });
		const result = await h.run({ ...create, options: { timeout: 300 } }, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(result.error?.message).toBe('The ERP did not answer within 0.3 s');
		// The sandbox logs the slow request once it has answered it, after the node gave up.
		await waitFor(async () => (await posts()).length > 0);
		expect(await posts()).toHaveLength(1);
	});

	it('a 429 on a create is retried, and the contact exists once', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: 0 }, times: 2 });
		const result = await h.run(create, { input: [{ first: 'Ada', email: 'ada@example.com' }] });
		expect(result.error).toBeUndefined();
		expect((await posts()).map((r) => r.status)).toEqual([429, 429, 201]);
		expect(await h.sandbox.admin.records('contacts')).toHaveLength(1);
	});

	it('an invoice send that failed with 502 is not sent again', async () => {
		await h.sandbox.admin.seed({ contacts: 1, invoices: 5 });
		const invoice = (await h.sandbox.admin.records('invoices')).find((i) => i.status === 'draft') ?? (await h.sandbox.admin.records('invoices'))[0];
		await h.mark();
		await h.sandbox.admin.queueFault({ match: { method: 'POST', path: `/invoices/${invoice.id}/send` }, fault: { kind: 'html', status: 502, afterCommit: true } });
		const result = await h.run({ resource: 'invoice', operation: 'send', invoiceId: byId(invoice.id) });
		expect(result.error?.message).toBe('The ERP failed with a server error (502)');
		expect(await posts()).toHaveLength(1);
	});

	it('reads and updates are retried through 5xx and drops until they succeed', async () => {
		await h.sandbox.admin.seed({ contacts: 1 });
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.mark();
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 503 } });
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'drop' } });
		const read = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) });
		expect(read.items[0].json.id).toBe(contact.id);
		await h.sandbox.admin.queueFault({ match: { method: 'PUT', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const update = await h.run({ resource: 'contact', operation: 'update', contactId: byId(contact.id), updateFields: { company: 'Initech' } });
		expect(update.items[0].json.company).toBe('Initech');
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 503', 'GET null', 'GET 200', 'GET 200', 'PUT 500', 'PUT 200']);
	});

	it('many items under random 5xx, drops and a rate limit: every item accounted for, nothing twice', async () => {
		// Seeded, so that the same requests meet the same faults on every run. A window of 5 is exceeded by the
		// node's first 12 requests, which leave together before any answer: a 429 comes however slow the machine is
		// and whichever of them meet a fault (once the node has learnt the window, it is seldom refused again).
		await h.sandbox.admin.setFaults({ errorRate: 0.15, dropRate: 0.1, rateLimit: { limit: 5, windowMs: 1000 }, seed: 1 });
		const input = Array.from({ length: 30 }, (_, i) => ({ first: `P${i}`, email: `p${i}@example.com` }));
		const result = await h.run({ ...create, options: { concurrency: 12 } }, { input, continueOnFail: true });
		await h.sandbox.admin.clearFaults();

		expect(result.items).toHaveLength(30);
		const stored = await h.sandbox.admin.records('contacts');
		const emails = stored.map((c) => c.email);
		expect(new Set(emails).size).toBe(emails.length);
		result.items.forEach((item, i) => {
			expect(item.pairedItem).toEqual({ item: i });
			// Reported OK → stored; never lost.
			if (!item.json.error) expect(stored.find((c) => c.id === item.json.id)?.email).toBe(`p${i}@example.com`);
		});
		const log = await posts();
		// The scenario really happened: faulted answers and dropped connections of creates, and 429s (on creates, or
		// on the lookups that settle the unclear ones) all occurred.
		expect(log.some((r) => r.fault?.kind === 'status')).toBe(true);
		expect(log.some((r) => r.status === null)).toBe(true);
		expect((await h.requests()).some((r) => r.status === 429)).toBe(true);
		// Writes the ERP really did (answered 201, or 201 before a fault replaced the answer): one per e-mail at most.
		// A create sent again after a lookup proved the first wrote nothing (a 429 behind a dropped connection) is fine.
		const writesPerEmail = new Map<string, number>();
		for (const r of log.filter((entry) => entry.status === 201 || entry.fault?.appStatus === 201)) {
			const email = (r.body as { email: string }).email;
			writesPerEmail.set(email, (writesPerEmail.get(email) ?? 0) + 1);
		}
		expect([...writesPerEmail.values()].every((n) => n === 1)).toBe(true);
	});
});
