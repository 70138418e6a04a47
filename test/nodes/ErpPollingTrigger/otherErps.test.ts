import type { VariantName } from '../../../tooling/harness/sandbox';
import { createContact, pollOk, reported, usePollingHarness } from './harness';

/** The trigger reads lists through the action node's transport: any page-size policy, with or without a total, and 429s. */
describe('ERP Polling Trigger: other ERPs', () => {
	const { sandbox, poller } = usePollingHarness();

	const variants: VariantName[][] = [['small-pages'], ['strict-paging'], ['fixed-pages'], ['no-total'], ['newest-first'], ['small-pages', 'no-total']];

	it.each(variants.map((chosen) => [chosen.join(' + '), chosen] as const))('%s: every record remembered once, each new one reported once', async (_, chosen) => {
		await sandbox.admin.setVariants([...chosen]);
		await sandbox.admin.seed({ contacts: 120 });
		const trigger = poller({ triggerOn: 'contact:recordAdded' });
		expect(await pollOk(trigger)).toEqual([]);
		const added = [await createContact(sandbox.api), await createContact(sandbox.api)];
		expect(reported(await pollOk(trigger)).sort()).toEqual(added.map((c) => `contact.created ${c.id}`).sort());
		expect(await pollOk(trigger)).toBeNull();
	});

	it('waits out a 429 with Retry-After and reports as usual', async () => {
		await sandbox.admin.seed({ contacts: 30 });
		const trigger = poller({ triggerOn: 'contact:recordAdded' });
		await pollOk(trigger);
		const added = await createContact(sandbox.api);
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'rateLimit', retryAfter: 1 } });
		const since = await sandbox.admin.lastRequestSeq();
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${added.id}`]);
		expect((await sandbox.admin.requests(since)).map((r) => r.status)).toEqual([429, 200]);
	});
});
