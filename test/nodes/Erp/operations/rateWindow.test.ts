import { createWith, useErpHarness } from './setup';

const h = useErpHarness();

const create = createWith('contact', { first_name: '={{ $json.first }}', email: '={{ $json.email }}' });

describe('a rate-limited ERP (fixed window, X-RateLimit-Remaining, Retry-After)', () => {
	it('once a window is used up, the items in flight are not refused: the wait is learnt (from the window\'s bounds, or one request\'s 429); every item is created once', async () => {
		const limit = 5;
		// Long enough that five requests use a window up however loaded the machine is; the count of refusals
		// below does not depend on how many windows the run took.
		await h.sandbox.admin.setFaults({ rateLimit: { limit, windowMs: 2000 } });
		const input = Array.from({ length: 15 }, (_, i) => ({ first: `R${i}`, email: `r${i}@example.com` }));
		const result = await h.run({ ...create, options: { concurrency: 5 } }, { input });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(15);
		const emails = (await h.sandbox.admin.records('contacts')).map((contact) => contact.email).sort();
		expect(emails).toEqual(input.map((row) => row.email).sort());
		// At most one refused request per used-up window, not one per item in flight: before each 429 (in the order
		// the requests arrived) a whole window of requests went through since the previous one. Fifteen items in
		// windows of five use up at most two windows while items are left. A window of whole seconds is learnt
		// from its bounds (WindowEnd), with none refused.
		const arrived = (await h.requests()).sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.seq - b.seq);
		const admittedBeforeEachRefusal: number[] = [];
		let admitted = 0;
		for (const request of arrived) {
			if (request.status !== 429) admitted++;
			else {
				admittedBeforeEachRefusal.push(admitted);
				admitted = 0;
			}
		}
		expect(admittedBeforeEachRefusal.length).toBeLessThanOrEqual(2);
		expect(admittedBeforeEachRefusal.filter((n) => n < limit)).toEqual([]);
	});
});
