import { createWith, useErpHarness } from '../setup';

// An ERP that tells its limit only by a 429's Retry-After (no count, no reset headers). A file of its own: the ERP's
// rate controller lives as long as the module, so no pace learnt by another test's 429s is carried into this one.
const h = useErpHarness({ contacts: 0 });

describe('an ERP that tells its limit only by the 429\'s Retry-After', () => {
	it('paces the runs after the first refusals instead of sending all at once after each wait; every contact is created once', async () => {
		await h.sandbox.admin.setVariants(['retry-after-only']);
		await h.sandbox.admin.setFaults({ rateLimit: { limit: 20, windowMs: 1000 } });
		const input = Array.from({ length: 120 }, (_, i) => ({ first: `P${i}`, email: `paced${i}@example.com` }));
		const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' }, { options: { concurrency: 10 } });
		const result = await h.run(create, { input });
		expect(result.error).toBeUndefined();
		const emails = (await h.sandbox.admin.records('contacts')).map((contact) => String(contact.email));
		expect(emails.sort()).toEqual(input.map((row) => row.email).sort());
		// The first window's overflow is refused (nothing told of the limit before); from the first request accepted
		// after that, few are. Sent all at once after each named wait, about half of each window's would be refused.
		const log = (await h.requests()).filter((r) => r.method === 'POST');
		const refusedShare = (requests: typeof log) => requests.filter((r) => r.status === 429).length / requests.length;
		const firstRefused = log.findIndex((r) => r.status === 429);
		const resumed = log.slice(log.findIndex((r, i) => i > firstRefused && r.status === 201));
		expect(refusedShare(log)).toBeLessThan(0.2);
		expect(refusedShare(resumed)).toBeLessThan(0.1);
	});
});
