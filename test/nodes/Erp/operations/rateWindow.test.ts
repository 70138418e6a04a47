import { createWith, useErpHarness } from './setup';

const h = useErpHarness();

const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });

describe('a rate-limited ERP (fixed window, X-RateLimit-Remaining, Retry-After)', () => {
	it('once a window is used up, every item waits for the reset the answers name: none is refused, every item is created once', async () => {
		const limit = 5;
		await h.sandbox.admin.setFaults({ rateLimit: { limit, windowMs: 2000 } });
		const input = Array.from({ length: 15 }, (_, i) => ({ first: `R${i}`, email: `r${i}@example.com` }));
		const result = await h.run({ ...create, options: { concurrency: 5 } }, { input });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(15);
		const emails = (await h.sandbox.admin.records('contacts')).map((contact) => contact.email).sort();
		expect(emails).toEqual(input.map((row) => row.email).sort());
		// Fifteen creates in windows of five: three windows, and the answer with none left names the reset.
		const arrived = await h.requests();
		expect(arrived.filter((request) => request.status === 429)).toEqual([]);
		const spanMs = Math.max(...arrived.map((r) => Date.parse(r.at))) - Math.min(...arrived.map((r) => Date.parse(r.at)));
		expect(spanMs).toBeGreaterThanOrEqual(2 * 2000);
	});
});
