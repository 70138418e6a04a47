import type { IDataObject } from 'n8n-workflow';

import { isOverdue } from '../../nodes/ErpTrigger/confirmRules';
import { readRateHeaders } from '../../nodes/shared/transport/rateControl';
import { createContact, pollOk, reported, usePollingHarness } from './ErpPollingTrigger/harness';

// The nodes' date rules at the edges of a day. Each instant here is given in UTC; the zone is the machine's, so
// `npm run test:clocks` runs this file (with the whole suite) in UTC+14, UTC-12 and the daylight-saving zones: every
// expectation below must hold in all of them.

const at = (iso: string) => new Date(iso);

describe('an invoice overdue by its due date: a due date up to the UTC date of now counts as passed', () => {
	it.each([
		['2026-12-31T00:00:00.000Z', '2026-12-31', true],
		['2026-12-31T23:59:59.999Z', '2026-12-31', true],
		['2026-12-31T23:59:59.999Z', '2027-01-01', false],
		['2027-01-01T00:00:00.000Z', '2027-01-01', true],
		['2027-01-01T00:00:00.000Z', '2027-01-02', false],
		['2028-02-29T12:00:00.000Z', '2028-02-29', true],
		['2028-02-28T23:59:59.999Z', '2028-02-29', false],
	])('at %s, due %s: %s', (now, due, overdue) => {
		expect(isOverdue({ status: 'sent', due_date: due }, at(now))).toBe(overdue);
	});

	it('reads the date part of a due timestamp as the ERP wrote it, whatever its offset', () => {
		const now = at('2027-01-01T05:00:00.000Z');
		expect(isOverdue({ status: 'sent', due_at: '2027-01-01T23:00:00-12:00' }, now)).toBe(true);
		expect(isOverdue({ status: 'sent', due_at: '2027-01-02T00:30:00+14:00' }, now)).toBe(false);
	});
});

describe('Retry-After as an HTTP date', () => {
	it.each([
		['across midnight UTC', 'Thu, 31 Dec 2026 23:59:58 GMT', 'Fri, 01 Jan 2027 00:00:05 GMT', 7_000],
		['on 29 February', 'Tue, 29 Feb 2028 23:59:59 GMT', 'Wed, 01 Mar 2028 00:00:01 GMT', 2_000],
		['in the past: no wait', 'Fri, 01 Jan 2027 00:00:10 GMT', 'Fri, 01 Jan 2027 00:00:05 GMT', 0],
	])('%s: the wait is the time until that instant, in any zone', (_, now, retryAfter, ms) => {
		const { wait } = readRateHeaders({ 'retry-after': retryAfter }, Date.parse(now));
		expect(wait).toEqual({ ms, atMs: Date.parse(retryAfter) });
	});
});

describe('ERP Polling Trigger across midnight and a year end', () => {
	const { sandbox, poller } = usePollingHarness();
	const localMidnight = () => new Date(2027, 0, 1, 0, 0, 0, 0).getTime();
	afterEach(() => jest.useRealTimers());

	// Only Date is faked (and moves on with real time), so the sandbox, the node and n8n-core see the same clock.
	const fakeNow = (ms: number) =>
		jest.useFakeTimers({
			now: ms,
			advanceTimers: true,
			doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
		});

	it.each([
		['the year end in UTC', () => Date.parse('2027-01-01T00:00:00.000Z')],
		["midnight in the machine's zone", localMidnight],
	])('%s: what changed on either side is reported once, stamped with the instant of its poll', async (_, midnight) => {
		fakeNow(midnight() - 2_000);
		const before = await createContact(sandbox.api, { email: 'before@example.com' });
		const added = poller({ triggerOn: 'contact:recordAdded' });
		const updated = poller({ triggerOn: 'contact:recordUpdated' });
		expect(await pollOk(added)).toEqual([]);
		expect(await pollOk(updated)).toEqual([]);
		const late = await createContact(sandbox.api, { email: 'late@example.com' });

		fakeNow(midnight() + 500);
		const early = await createContact(sandbox.api, { email: 'early@example.com' });
		expect((await sandbox.api.put(`/contacts/${before.id}`, { ...before, company: 'Neujahr GmbH' })).status).toBe(200);
		const polledAt = Date.now();
		const items = await pollOk(added);
		expect(reported(items)).toEqual([`contact.created ${late.id}`, `contact.created ${early.id}`]);
		for (const { json } of items ?? []) {
			const stamped = Date.parse(String((json as IDataObject).timestamp));
			expect(stamped).toBeGreaterThanOrEqual(polledAt);
			expect(stamped - polledAt).toBeLessThan(60_000);
		}
		expect(reported(await pollOk(updated))).toEqual([`contact.updated ${before.id}`]);
		expect(await pollOk(added)).toBeNull();
		expect(await pollOk(updated)).toBeNull();
	});
});
