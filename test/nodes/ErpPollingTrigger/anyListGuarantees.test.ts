import type { IDataObject, INodeParameters, NodeOperationError } from 'n8n-workflow';

import { MISSES_TO_FORGET } from '../../../nodes/ErpPollingTrigger/observe';
import { waitFor } from '../../../tooling/harness/sandbox';
import { createOrder, memoryOf, pollOk, reported, usePollingHarness } from './harness';

/**
 * Any list keeps the known resources' promises (guarantees.test.ts, overlappingPolls.test.ts, failures.test.ts):
 * nothing missed, nothing twice, across polls, failed polls, n8n restarts under either scheduler, and polls that
 * overlap. Failed polls, the baseline across a restart and durable cursors are in guarantees.test.ts (ADDED_WATCHES).
 */
describe('ERP Polling Trigger, any list: guarantees', () => {
	const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });
	let count = 0;
	const order = (fields: IDataObject = {}) => createOrder(sandbox.api, { reference: `SO-G${++count}`, ...fields });
	const orders = (parameters: INodeParameters, scheduler?: 'classic' | 'durable') => poller({ listPath: '/orders', ...parameters }, undefined, scheduler);

	describe.each(['classic', 'durable'] as const)('n8n restarts, %s scheduler', (scheduler) => {
		const watch = (parameters: INodeParameters) => orders(parameters, scheduler);

		it('what a poll reported is saved with its execution, so a restart does not report it again', async () => {
			const trigger = watch({ triggerOn: 'list:recordUpdated', fieldsToWatch: 'status' });
			const shipping = await order();
			await pollOk(trigger);
			await sandbox.api.patch(`/orders/${shipping.id}`, { status: 'shipped' });
			expect(reported(await pollOk(trigger))).toEqual([`record.updated ${shipping.id}`]);
			trigger.restart();
			expect(await pollOk(trigger)).toBeNull();
		});

		it('an order added under Record Updated is remembered across a restart: its change while n8n was down is reported', async () => {
			const trigger = watch({ triggerOn: 'list:recordUpdated', fieldsToWatch: 'status' });
			expect(await pollOk(trigger)).toEqual([]);
			const added = await order({ status: 'open' });
			expect(await pollOk(trigger)).toEqual([]);
			expect(await pollOk(trigger)).toBeNull();
			trigger.restart();
			await sandbox.api.patch(`/orders/${added.id}`, { status: 'confirmed' });
			const items = await pollOk(trigger);
			expect(reported(items)).toEqual([`record.updated ${added.id}`]);
			expect(items?.[0].json.changes).toEqual({ status: { previous: 'open', current: 'confirmed' } });
		});

		it('an order leaving the watched value starts an empty execution, so the next time it takes the value is reported after a restart', async () => {
			const moving = await order({ status: 'confirmed' });
			const trigger = watch({ triggerOn: 'list:fieldValue', field: 'status', value: 'shipped' });
			await pollOk(trigger);
			await sandbox.api.patch(`/orders/${moving.id}`, { status: 'shipped' });
			expect(reported(await pollOk(trigger))).toEqual([`record.shipped ${moving.id}`]);
			await sandbox.api.patch(`/orders/${moving.id}`, { status: 'confirmed' });
			expect(await pollOk(trigger)).toEqual([]);
			trigger.restart();
			await sandbox.api.patch(`/orders/${moving.id}`, { status: 'shipped' });
			expect(reported(await pollOk(trigger))).toEqual([`record.shipped ${moving.id}`]);
		});

		it(`a deleted order is forgotten once ${MISSES_TO_FORGET} polls in a row missed it, with an empty execution that saves it; nothing is looked up`, async () => {
			const [kept, deleted] = [await order(), await order()];
			const trigger = watch({ triggerOn: 'list:recordAdded' });
			await pollOk(trigger);
			await sandbox.api.delete(`/orders/${deleted.id}`);
			const since = await sandbox.admin.lastRequestSeq();
			for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
			expect(Object.keys(memoryOf(trigger).records as IDataObject)).toEqual([String(kept.id), String(deleted.id)]);
			expect(await pollOk(trigger)).toEqual([]);
			expect(Object.keys(memoryOf(trigger).records as IDataObject)).toEqual([String(kept.id)]);
			trigger.restart();
			expect(await pollOk(trigger)).toBeNull();
			expect(Object.keys(memoryOf(trigger).records as IDataObject)).toEqual([String(kept.id)]);
			expect(new Set((await sandbox.admin.requests(since)).map((r) => `${r.method} ${r.path}`))).toEqual(new Set(['GET /orders']));
		});

	});

	it('two polls that overlap report a change once; the memory after them is right for the next change', async () => {
		const changing = await order({ status: 'open' });
		const trigger = orders({ triggerOn: 'list:recordAddedOrUpdated', fieldsToWatch: 'status', options: { maxRetries: 0 } });
		expect(await pollOk(trigger)).toEqual([]);
		await sandbox.api.patch(`/orders/${changing.id}`, { status: 'confirmed' });
		const added = await order();

		const since = await sandbox.admin.lastRequestSeq();
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/orders' }, fault: { kind: 'latency', delayMs: 1_500 } });
		const slow = pollOk(trigger);
		await waitFor(async () => (await sandbox.admin.requests(since)).length > 0 || (await sandbox.admin.faults()).queue.length === 0);
		expect(await pollOk(trigger)).toBeNull();
		expect(reported(await slow)).toEqual([`record.updated ${changing.id}`, `record.created ${added.id}`]);

		expect(await pollOk(trigger)).toBeNull();
		await sandbox.api.patch(`/orders/${changing.id}`, { status: 'shipped' });
		const next = (await pollOk(trigger)) ?? [];
		expect(reported(next)).toEqual([`record.updated ${changing.id}`]);
		expect(next[0].json.changes).toEqual({ status: { previous: 'confirmed', current: 'shipped' } });
	});

	// Last: the ERP's wait is learnt by every later run against this sandbox (the rate budget is shared in the process).
	it("a 429 naming a long wait → rate-limited with the ERP's wait, on the error poll() throws", async () => {
		await order();
		await sandbox.admin.queueFault({ match: { method: 'GET', path: '/orders' }, fault: { kind: 'rateLimit', retryAfter: 3600 } });
		const { error } = await orders({ triggerOn: 'list:recordUpdated' }).poll();
		expect(error?.message).toBe('The ERP asks to wait 1 h before the next request (429)');
		expect((error as NodeOperationError).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
	});
});
