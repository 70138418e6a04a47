import type { Contact } from '../../../sandbox/types';
import type { Poller } from '../../../tooling/harness';
import { createContact, pollOk, remembered, reported, usePollingHarness, withChangeBetweenPages } from './harness';

/**
 * Creates and deletes while a scan runs shift records between pages (offset paging): a record can be missed by
 * one scan or met twice. Neither may hide a change for good or report one twice; a record missing from one scan
 * must not come back as new, and a deleted record is forgotten only once the ERP says it is gone.
 */
describe('ERP Polling Trigger: records moving while a scan runs', () => {
	const { sandbox, poller } = usePollingHarness();
	// Pages of 2, one at a time, so that the change lands between two known pages.
	const options = { pageSize: 2, concurrency: 1 };

	const sixContacts = async () => {
		const contacts: Contact[] = [];
		for (let i = 0; i < 6; i++) contacts.push(await createContact(sandbox.api));
		return contacts;
	};
	const deleteDuringPoll = (trigger: Poller, contact: Contact) => withChangeBetweenPages(sandbox, '/contacts', () => pollOk(trigger), () => sandbox.api.delete(`/contacts/${contact.id}`));

	const lookups = async (since: number) =>
		(await sandbox.admin.requests(since)).filter((r) => r.method === 'GET' && /^\/contacts\/\d+$/.test(r.path)).map((r) => `${r.path} ${r.status}`);

	it('a delete during a poll hides the next record from that scan: it is looked up, kept, and never reported as new', async () => {
		const contacts = await sixContacts();
		const trigger = poller({ triggerOn: 'contact:recordAdded', options });
		await pollOk(trigger);

		const since = await sandbox.admin.lastRequestSeq();
		expect(await deleteDuringPoll(trigger, contacts[0])).toBeNull();
		// The scan missed the third contact (shifted onto page 1): looked up by ID, found, still remembered.
		expect(await lookups(since)).toEqual([`/contacts/${contacts[2].id} 200`]);
		expect(remembered(trigger)).toEqual(contacts.map((c) => String(c.id)));

		const next = await sandbox.admin.lastRequestSeq();
		// The deleted one is missing now too: forgotten only after the ERP answered 404, and saved with an empty execution.
		expect(await pollOk(trigger)).toEqual([]);
		expect(await lookups(next)).toEqual([`/contacts/${contacts[0].id} 404`]);
		expect(remembered(trigger)).toEqual(contacts.slice(1).map((c) => String(c.id)));

		const added = await createContact(sandbox.api);
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${added.id}`]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('a delete during the first scan does not make a record already there look new later', async () => {
		const contacts = await sixContacts();
		const trigger = poller({ triggerOn: 'contact:recordAdded', options });
		expect(await deleteDuringPoll(trigger, contacts[0])).toEqual([]);
		expect(remembered(trigger)).toEqual(expect.arrayContaining([String(contacts[2].id)]));
		// The next poll finds the deleted one gone (an empty execution saves that), then nothing.
		expect(await pollOk(trigger)).toEqual([]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('an ERP listing newest first: a create during a scan shifts every later page, and each new record is reported once', async () => {
		await sandbox.admin.setVariants(['newest-first']);
		await sixContacts();
		const trigger = poller({ triggerOn: 'contact:recordAdded', options });
		await pollOk(trigger);

		const before = await createContact(sandbox.api);
		let during: Contact | undefined;
		const first = await withChangeBetweenPages(sandbox, '/contacts', () => pollOk(trigger), async () => (during = await createContact(sandbox.api)));
		const second = await pollOk(trigger);
		const third = await pollOk(trigger);
		const all = [...reported(first), ...reported(second), ...reported(third)];
		expect(all.sort()).toEqual([`contact.created ${before.id}`, `contact.created ${String(during?.id)}`].sort());
	});

	it('deleting many at once: at most 100 lookups per poll, the rest stay remembered until a later poll', async () => {
		await sandbox.admin.seed({ contacts: 150 });
		const trigger = poller({ triggerOn: 'contact:recordAdded' });
		await pollOk(trigger);
		for (let id = 1; id <= 130; id++) expect((await sandbox.api.delete(`/contacts/${id}`)).status).toBe(200);

		let since = await sandbox.admin.lastRequestSeq();
		expect(await pollOk(trigger)).toEqual([]);
		expect(await lookups(since)).toHaveLength(100);
		expect(remembered(trigger)).toHaveLength(50);

		since = await sandbox.admin.lastRequestSeq();
		expect(await pollOk(trigger)).toEqual([]);
		expect(await lookups(since)).toHaveLength(30);
		expect(remembered(trigger)).toHaveLength(20);
	});
});
