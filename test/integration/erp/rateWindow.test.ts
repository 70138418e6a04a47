import { createWith, useErpHarness } from './setup';

const h = useErpHarness();

const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });

describe('a rate-limited ERP (fixed window, X-RateLimit-Remaining, Retry-After)', () => {
	it('once a window is used up, one request learns the wait; every item is created once', async () => {
		await h.sandbox.admin.setFaults({ rateLimit: { limit: 5, windowMs: 1000 } });
		const input = Array.from({ length: 15 }, (_, i) => ({ first: `R${i}`, email: `r${i}@example.com` }));
		const result = await h.run({ ...create, options: { concurrency: 5 } }, { input });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(15);
		const emails = (await h.sandbox.admin.records('contacts')).map((contact) => contact.email).sort();
		expect(emails).toEqual(input.map((row) => row.email).sort());
		// Three windows of five, two waits: one refused request each, not one per item in flight.
		expect((await h.requests()).filter((request) => request.status === 429)).toHaveLength(2);
	});
});
