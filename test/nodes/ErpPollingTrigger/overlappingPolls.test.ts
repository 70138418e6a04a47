import { waitFor } from '../../../tooling/harness/sandbox';
import { createContact, pollOk, reported, usePollingHarness } from './harness';

/**
 * n8n starts a poll at every poll time whether or not the previous one has ended (n8n 2.41 and 1.123 without
 * durable poll cursors), and several Poll Times entries can fall on the same moment. A poll slower than the
 * interval (a rate-limited ERP, Stock Below Threshold over many products) then runs beside the next one, both
 * starting from the same memory: the same change must not be reported by both.
 */
describe('ERP Polling Trigger: polls that overlap', () => {
	const { sandbox, poller } = usePollingHarness();

	/** Starts `slow` with its first list request held 1.5 s, runs `fast` meanwhile, and returns both results. */
	async function overlapping<T>(slow: () => Promise<T>, fast: () => Promise<T>): Promise<[T, T]> {
		const since = await sandbox.admin.lastRequestSeq();
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'latency', delayMs: 1_500 } });
		const running = slow();
		await waitFor(async () => (await sandbox.admin.requests(since)).length > 0 || (await sandbox.admin.faults()).queue.length === 0);
		const second = await fast();
		return [await running, second];
	}

	it('a change is reported once by the two polls together; the memory after them is right for the next change', async () => {
		const contact = await createContact(sandbox.api, { company: 'Before' });
		const trigger = poller({ triggerOn: 'contact:recordAddedOrUpdated', fieldsToWatch: 'company', options: { maxRetries: 0 } });
		expect(await pollOk(trigger)).toEqual([]);

		await sandbox.api.put(`/contacts/${contact.id}`, { company: 'After' });
		const added = await createContact(sandbox.api);
		const [slow, fast] = await overlapping(
			() => pollOk(trigger),
			() => pollOk(trigger),
		);
		// The poll that starts while the other runs is skipped (it would compare with the same memory).
		expect(fast).toBeNull();
		expect(reported(slow)).toEqual([`contact.updated ${contact.id}`, `contact.created ${added.id}`]);
		const memory = trigger.inMemory();

		// The next poll finds nothing new; a later change is reported as usual.
		expect(await pollOk(trigger)).toBeNull();
		expect(trigger.inMemory()).toEqual(memory);
		await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Later' });
		const next = (await pollOk(trigger)) ?? [];
		expect(reported(next)).toEqual([`contact.updated ${contact.id}`]);
		expect(next[0].json.changes).toEqual({ company: { previous: 'After', current: 'Later' } });
	});

	it('two first polls of an activation take one baseline, and a later record is reported once', async () => {
		await createContact(sandbox.api);
		const trigger = poller({ triggerOn: 'contact:recordAdded' });
		const [slow, fast] = await overlapping(
			() => pollOk(trigger),
			() => pollOk(trigger),
		);
		// The baseline's empty execution (n8n saves the memory with it), and the skipped one.
		expect([slow, fast]).toEqual([[], null]);
		const added = await createContact(sandbox.api);
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${added.id}`]);
	});

	it('a failed poll does not keep the next ones from running', async () => {
		const trigger = poller({ triggerOn: 'contact:recordAdded', options: { maxRetries: 0 } });
		expect(await pollOk(trigger)).toEqual([]);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 500 } });
		expect((await trigger.poll()).error).toBeDefined();
		const contact = await createContact(sandbox.api, { email: 'overlap-3@example.com' });
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${contact.id}`]);
	});
});
