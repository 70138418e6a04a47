import { useErpHarness, byId, jsonOf } from '../operations/setup';
import { useTestSandbox } from '../../../../tooling/harness/sandbox';
import { probeOn, runProbe } from './probe';
import { useScriptedErp } from './scriptedErp';

describe('waits and retries on the wire', () => {
	const scripted = useScriptedErp();
	const sandbox = useTestSandbox();
	const probe = probeOn(sandbox);

	it('retries a 5xx on its own short schedule although it names a reset an hour away', async () => {
		const inAnHour = String(Math.round(Date.now() / 1000) + 3600);
		scripted.answer((_request, n) =>
			n <= 2
				? { status: 503, headers: { 'X-RateLimit-Reset': inAnHour, 'X-RateLimit-Remaining': '0', 'Retry-After': '3600' }, body: { message: 'busy' } }
				: { status: 200, body: { success: true, data: { id: 1, first_name: 'Ada' } } },
		);
		const result = await runProbe({ baseUrl: scripted.baseUrl, calls: [{ request: { method: 'GET', path: '/contacts/1', doing: { action: 'read contact 1', noun: 'contact', id: 1 }, expect: 'record' } }] });
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ statusCode: 200, data: { id: 1 } });
		expect(scripted.requests).toHaveLength(3);
	});

	it('fails at once when a 429 names a wait beyond the budget, saying when to try again', async () => {
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		const result = await probe({ calls: [{ request: { method: 'GET', path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } } }] });
		expect(result.error).toMatchObject({ name: 'NodeApiError', message: 'The ERP asks to wait 1 h before the next request (429)', httpCode: '429' });
		expect((result.error as { description?: string }).description).toMatch(/^Try again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 1 h\)/);
		expect((await sandbox.admin.requests()).map((r) => r.status)).toEqual([429]);
	});
});

describe('a DELETE answered 404 on its retry (the ERP node)', () => {
	const h = useErpHarness({ contacts: 1 });

	it('after a 429 is "not found": a 429 means the first attempt did nothing', async () => {
		await h.sandbox.admin.queueFault({ match: { method: 'DELETE', path: '/contacts/4242' }, fault: { kind: 'rateLimit', retryAfter: 0 } });
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(4242) });
		expect(result.error).toMatchObject({ message: 'Contact 4242 was not found (404)' });
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['DELETE 429', 'DELETE 404']);
	});

	it('after an unclear failure is "deleted": the first attempt did delete', async () => {
		const [contact] = await h.sandbox.admin.records('contacts');
		await h.sandbox.admin.queueFault({ match: { method: 'DELETE', path: '/contacts' }, fault: { kind: 'status', status: 500, afterCommit: true } });
		const result = await h.run({ resource: 'contact', operation: 'delete', contactId: byId(contact.id) });
		expect(jsonOf(result)).toEqual([{ id: contact.id, deleted: true }]);
		expect((await h.requests()).map((r) => `${r.method} ${r.status}`)).toEqual(['DELETE 500', 'DELETE 404']);
	});
});
