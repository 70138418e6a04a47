import { byId, jsonOf, useErpHarness } from '../setup';

// ERPs that report their rate limit (or a gateway's) in other ways. A wrong wait would exceed the test's time limit.
const h = useErpHarness({ contacts: 2 });

describe('rate limits and waits on ERPs that report them otherwise', () => {
	it('gateway-headers: a 5xx carrying a rate-limit reset an hour away is retried on the short schedule', async () => {
		await h.sandbox.admin.setVariants(['gateway-headers']);
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 503 }, times: 2 });
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([contact]);
		const log = await h.requests();
		expect(log.map((r) => r.status)).toEqual([503, 503, 200]);
		const first = Date.parse(log[0].at);
		expect(Date.parse(log[2].at) - first).toBeLessThan(60_000);
	});

	// The wait each 429 names is 2 s or more, above the node's own first back-off (at most 1 s): a retry that
	// comes that late was waiting for the named time.
	it.each([
		['ietf-ratelimit', 'a 429 whose Retry-After is an HTTP date', () => ({ 'Retry-After': new Date(Date.now() + 3000).toUTCString() })],
		['no-retry-after', 'a 429 naming only X-RateLimit-Reset', () => ({ 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 3) })],
	] as const)('%s: %s is waited out until the time it names, then the request succeeds', async (variant, _what, namedWait) => {
		await h.sandbox.admin.setVariants([variant]);
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET' }, fault: { kind: 'rateLimit', headers: namedWait() } });
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([contact]);
		const log = await h.requests();
		expect(log.map((r) => r.status)).toEqual([429, 200]);
		expect(Date.parse(log[1].at) - Date.parse(log[0].at)).toBeGreaterThanOrEqual(1500);
	});

	it('a 429 that names a wait beyond the node\'s wait budget fails at once, saying when to try again', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'GET' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		// The read-only token: an ERP of its own, so that the hour this 429 names holds no other test's requests.
		const result = await h.run({ resource: 'contact', operation: 'get', contactId: byId(contact.id) }, { token: h.sandbox.readOnlyToken });
		expect(`${result.error?.message} ${(result.error as { description?: string }).description}`).toMatch(/wait 1 h .*Try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/s);
		expect((await h.requests()).map((r) => r.status)).toEqual([429]);
	});
});
