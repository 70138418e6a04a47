import { sleep } from 'n8n-workflow';

import { createContact, pollOk, reported, usePollingHarness } from './harness';

/**
 * n8n 2.41 and 1.123 start a poll at its time even while the trigger's previous poll still runs (the cron tick does
 * not wait; 2.41's poll telemetry counts such polls as `overlapped`): a slow or rate-limited ERP makes a poll last
 * longer than the interval. Two polls comparing with the same memory would report the same records twice.
 */
describe('ERP Polling Trigger: a poll starting while the previous one runs', () => {
	const { sandbox, poller } = usePollingHarness();

	it('is skipped: each new record is reported once, and the polls after it work as before', async () => {
		const trigger = poller({ resource: 'contact', triggerOn: 'recordAdded', options: { maxRetries: 0 } });
		expect(await pollOk(trigger)).toBeNull();
		const first = await createContact(sandbox.api, { email: 'overlap-1@example.com' });

		// The first poll's list answers after 1.5 s; the next poll time comes meanwhile.
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'latency', delayMs: 1500 } });
		const slow = trigger.poll();
		await sleep(300);
		const next = await trigger.poll();
		const slowResult = await slow;
		expect(slowResult.error).toBeUndefined();
		expect(next.error).toBeUndefined();
		expect([...reported(slowResult.items), ...reported(next.items)]).toEqual([`contact.created ${first.id}`]);
		expect(next.items).toBeNull();

		const second = await createContact(sandbox.api, { email: 'overlap-2@example.com' });
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${second.id}`]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('a failed poll does not keep the next ones from running', async () => {
		const trigger = poller({ resource: 'contact', triggerOn: 'recordAdded', options: { maxRetries: 0 } });
		expect(await pollOk(trigger)).toBeNull();
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/contacts' }, fault: { kind: 'status', status: 500 } });
		expect((await trigger.poll()).error).toBeDefined();
		const contact = await createContact(sandbox.api, { email: 'overlap-3@example.com' });
		expect(reported(await pollOk(trigger))).toEqual([`contact.created ${contact.id}`]);
	});
});
