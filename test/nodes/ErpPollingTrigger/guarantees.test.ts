import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Poller } from '../../../tooling/harness';
import { waitFor } from '../../../tooling/harness/sandbox';
import { ADDED_WATCHES, createContact, createProduct, pollOk, reported, usePollingHarness } from './harness';

/**
 * Nothing missed, nothing twice: across polls, failed polls, n8n restarts (the harness saves static data as n8n
 * 2.41 and 1.123 do: after the activation's poll and after a poll that starts an execution, never otherwise). What
 * holds for new records is shown for contacts and for any list alike (ADDED_WATCHES); anyList.test.ts has the rest
 * for any list.
 */
describe('ERP Polling Trigger: guarantees', () => {
	const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });

	describe.each(ADDED_WATCHES)('$name: a failed poll changes nothing, and the next one reports everything that happened meanwhile, once', (watched) => {
		const { path } = watched;
		const failures: Array<[string, () => Promise<unknown>]> = [
			['a 401 on the list', () => sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'status', status: 401 } })],
			[
				'a 500 on the second page after the retries',
				async () => {
					await sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'latency', delayMs: 0 } });
					await sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'status', status: 500 }, times: 2 });
				},
			],
			['the ERP unreachable', () => sandbox.admin.restart(3_000)],
		];

		it.each(failures)('%s', async (_, fail) => {
			for (let i = 0; i < 3; i++) await watched.add(sandbox);
			const trigger = poller({ ...watched.parameters, options: { pageSize: 2, maxRetries: 1, concurrency: 1 } });
			expect(await pollOk(trigger)).toEqual([]);
			const memory = trigger.inMemory();
			const saved = trigger.saved();
			expect(JSON.stringify(memory)).toContain('erpPoll');

			const during = await watched.add(sandbox);
			await fail();
			const failed = await trigger.poll();
			expect(failed.error).toBeDefined();
			expect(failed.items).toBeNull();
			expect(trigger.inMemory()).toEqual(memory);
			expect(trigger.saved()).toEqual(saved);

			await sandbox.admin.waitUntilUp();
			await sandbox.admin.clearFaultQueue();
			const after = await watched.add(sandbox);
			expect(reported(await pollOk(trigger))).toEqual([during, after]);
			expect(await pollOk(trigger)).toBeNull();
		});

		it('a failed poll says what the trigger was doing, in the words of the watched list', async () => {
			const trigger = poller({ ...watched.parameters, options: { maxRetries: 0 } });
			await sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'status', status: 403 } });
			expect((await trigger.poll()).error?.message).toBe(`The API token is not allowed to ${watched.listing} (403)`);
		});
	});

	it('a failed stock read changes nothing either; the crossing is reported by the next poll', async () => {
		const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
		const trigger = poller({ triggerOn: 'product:lowStock', options: { maxRetries: 0 } });
		await pollOk(trigger);
		const memory = trigger.inMemory();
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 2 });
		await sandbox.admin.queueFault({ match: { method: 'GET', path: `/products/${product.id}/stock` }, fault: { kind: 'status', status: 503 } });
		expect((await trigger.poll()).error?.message).toBeDefined();
		expect(trigger.inMemory()).toEqual(memory);
		expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${product.id}`]);
	});

	describe.each(['classic', 'durable'] as const)('n8n restarts, %s scheduler', (scheduler) => {
		const watch = (parameters: INodeParameters, staticData?: IDataObject) => poller(parameters, staticData, scheduler);

		it.each(ADDED_WATCHES)('$name: the activation baseline is saved; records added while n8n was down are reported once after the restart, and saved with that execution', async (watched) => {
			await watched.add(sandbox);
			const trigger = watch(watched.parameters);
			// An empty execution: the durable scheduler keeps the activation poll's memory only with an execution.
			expect(await pollOk(trigger)).toEqual([]);
			trigger.restart();
			const whileDown = [await watched.add(sandbox), await watched.add(sandbox)];
			expect(reported(await pollOk(trigger))).toEqual(whileDown);
			trigger.restart();
			expect(await pollOk(trigger)).toBeNull();
		});

		it('a record added under Record Updated is remembered across a restart: its change while n8n was down is reported', async () => {
			const trigger = watch({ triggerOn: 'contact:recordUpdated', fieldsToWatch: 'company' });
			expect(await pollOk(trigger)).toEqual([]);
			const contact = await createContact(sandbox.api, { company: 'Nordwind GmbH' });
			// Not reported (Record Updated), yet learnt: an empty execution makes n8n save it.
			expect(await pollOk(trigger)).toEqual([]);
			expect(await pollOk(trigger)).toBeNull();
			trigger.restart();
			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Ostwind AG' });
			const items = await pollOk(trigger);
			expect(reported(items)).toEqual([`contact.updated ${contact.id}`]);
			expect(items?.[0].json.changes).toEqual({ company: { previous: 'Nordwind GmbH', current: 'Ostwind AG' } });
		});

		it('a field the ERP starts to send is watched across a restart when every field is watched', async () => {
			const contact = await createContact(sandbox.api, { notes: 'first' });
			const trigger = watch({ triggerOn: 'contact:recordUpdated' });
			await pollOk(trigger);
			// The memory as if the ERP had not sent `notes` before: without its chunk and its name.
			const state = (trigger.saved()['node:ERP Polling Trigger'] as IDataObject).erpPoll as { fields: string[]; records: Record<string, string> };
			const at = state.fields.indexOf('notes');
			const older = {
				...state,
				fields: state.fields.filter((name) => name !== 'notes'),
				records: Object.fromEntries(Object.entries(state.records).map(([id, token]) => [id, token.slice(0, at * 4) + token.slice((at + 1) * 4)])),
			};
			const upgraded = watch({ triggerOn: 'contact:recordUpdated' }, { 'node:ERP Polling Trigger': { erpPoll: older } });
			// A new field is no change of every record, but learnt: an empty execution makes n8n save it.
			expect(await pollOk(upgraded)).toEqual([]);
			upgraded.restart();
			await sandbox.api.put(`/contacts/${contact.id}`, { notes: 'second' });
			expect(reported(await pollOk(upgraded))).toEqual([`contact.updated ${contact.id}`]);
		});

		it('a record found gone is forgotten across a restart: it is not looked up again', async () => {
			await createContact(sandbox.api);
			const deleted = await createContact(sandbox.api);
			const trigger = watch({ triggerOn: 'contact:recordAdded' });
			await pollOk(trigger);
			await sandbox.api.delete(`/contacts/${deleted.id}`);
			expect(await pollOk(trigger)).toEqual([]);
			trigger.restart();
			const since = await sandbox.admin.lastRequestSeq();
			expect(await pollOk(trigger)).toBeNull();
			expect((await sandbox.admin.requests(since)).map((r) => r.path)).toEqual(['/contacts']);
		});

		it('a record leaving the watched value starts an empty execution, so the next time it takes the value is reported after a restart', async () => {
			const contact = await createContact(sandbox.api, { company: 'Nordwind GmbH' });
			const trigger = watch({ triggerOn: 'contact:fieldValue', field: 'company', value: 'Ostwind AG' });
			await pollOk(trigger);
			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Ostwind AG' });
			expect(reported(await pollOk(trigger))).toEqual([`contact.company.Ostwind AG ${contact.id}`]);

			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Südwind KG' });
			// Nothing to report, yet the memory changed: an execution with no items makes n8n save it.
			expect(await pollOk(trigger)).toEqual([]);
			trigger.restart();
			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Ostwind AG' });
			expect(reported(await pollOk(trigger))).toEqual([`contact.company.Ostwind AG ${contact.id}`]);
		});

		it('a restocked product is armed again across a restart: the next fall below is reported', async () => {
			const product = await createProduct(sandbox.api, { low_stock_threshold: 10 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50 });
			const trigger = watch({ triggerOn: 'product:lowStock' });
			await pollOk(trigger);
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 3 });
			expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${product.id}`]);
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 40 });
			expect(await pollOk(trigger)).toEqual([]);
			trigger.restart();
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 4 });
			expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${product.id}`]);
		});

		it('the page size an ERP accepted after refusing 100 is kept with the memory: no poll asks 100 again, across a restart', async () => {
			await sandbox.admin.setVariants(['strict-paging']);
			await sandbox.admin.seed({ contacts: 60 });
			const trigger = watch({ triggerOn: 'contact:recordAdded' });
			const since = await sandbox.admin.lastRequestSeq();
			expect(await pollOk(trigger)).toEqual([]);
			expect((await sandbox.admin.requests(since)).filter((r) => r.status === 422)).toHaveLength(1);
			trigger.restart();
			const after = await sandbox.admin.lastRequestSeq();
			expect(await pollOk(trigger)).toBeNull();
			const asked = (await sandbox.admin.requests(after)).map((r) => `${r.query.per_page} ${r.status}`);
			expect(asked).toEqual(['50 200', '50 200']);
		});

		it.each(ADDED_WATCHES)('$name: a first poll that fails stores nothing; the next poll takes the baseline and reports nothing that already existed', async (watched) => {
			await watched.add(sandbox);
			const trigger = watch({ ...watched.parameters, options: { maxRetries: 0 } });
			await sandbox.admin.queueFault({ match: { method: 'GET', path: watched.path }, fault: { kind: 'status', status: 503 } });
			expect((await trigger.poll()).error).toBeDefined();
			expect(trigger.saved()).toEqual({});
			expect(JSON.stringify(trigger.inMemory())).not.toContain('erpPoll');
			await watched.add(sandbox);
			expect(await pollOk(trigger)).toEqual([]);
			const added = await watched.add(sandbox);
			expect(reported(await pollOk(trigger))).toEqual([added]);
		});
	});

	it.each(ADDED_WATCHES)('$name, durable cursors: a poll that starts before n8n saved the last reporting poll does not report its records again', async (watched) => {
		const trigger = poller(watched.parameters, undefined, 'durable');
		expect(await pollOk(trigger)).toEqual([]);
		const added = await watched.add(sandbox);
		const [first, second] = await trigger.pollTwiceBeforeSaving();
		expect(reported(first.items)).toEqual([added]);
		expect(second).toEqual({ items: null });
		expect(await pollOk(trigger)).toBeNull();
		const later = await watched.add(sandbox);
		expect(reported(await pollOk(trigger))).toEqual([later]);
	});

	describe('first activation and the test step', () => {
		it.each(ADDED_WATCHES)('$name: Report Existing on Publish reports what exists once, then only what is new', async (watched) => {
			const existing = [await watched.add(sandbox), await watched.add(sandbox)];
			const trigger = poller({ ...watched.parameters, options: { reportExisting: true } });
			expect(reported(await pollOk(trigger))).toEqual(existing);
			expect(await pollOk(trigger)).toBeNull();
			trigger.restart();
			expect(await pollOk(trigger)).toBeNull();
		});

		it('Fetch Test Event returns the most recent record and leaves the memory untouched, before and after activation', async () => {
			await createContact(sandbox.api, { email: 'first@example.com' });
			const newest = await createContact(sandbox.api, { email: 'newest@example.com' });
			const trigger = poller({ triggerOn: 'contact:recordAdded' });
			const beforeActivation = await trigger.testStep();
			expect(reported(beforeActivation.items)).toEqual([`contact.created ${newest.id}`]);
			expect(trigger.inMemory()).toEqual({});

			await pollOk(trigger);
			const memory = trigger.inMemory();
			const added = await createContact(sandbox.api);
			expect(reported((await trigger.testStep()).items)).toEqual([`contact.created ${added.id}`]);
			expect(trigger.inMemory()).toEqual(memory);
			expect(reported(await pollOk(trigger))).toEqual([`contact.created ${added.id}`]);
		});

		it('Fetch Test Event for a value returns the most recent record having it, and nothing when none has it', async () => {
			const a = await createContact(sandbox.api, { company: 'Ostwind AG' });
			await createContact(sandbox.api, { company: 'Nordwind GmbH' });
			const trigger = poller({ triggerOn: 'contact:fieldValue', field: 'company', value: 'Ostwind AG' });
			expect(reported((await trigger.testStep()).items)).toEqual([`contact.company.Ostwind AG ${a.id}`]);
			const none = poller({ triggerOn: 'contact:fieldValue', field: 'company', value: 'Westwind SE' });
			expect(await none.testStep()).toEqual({ items: null });
		});

		it('a changed configuration takes a new baseline instead of comparing with the old one', async () => {
			const contact = await createContact(sandbox.api, { company: 'Ostwind AG' });
			let parameters = { triggerOn: 'contact:fieldValue', field: 'company', value: 'Nordwind GmbH' };
			const first = poller(parameters);
			await pollOk(first);
			parameters = { ...parameters, value: 'Ostwind AG' };
			// The saved workflow with the new Value, activated again with the old static data.
			const second = poller(parameters, first.saved());
			expect(await pollOk(second)).toEqual([]);
			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Nordwind GmbH' });
			await sandbox.api.put(`/contacts/${contact.id}`, { company: 'Ostwind AG' });
			expect(await pollOk(second)).toBeNull();
		});
	});

	it('remembers short tokens per ID, never whole records', async () => {
		await sandbox.admin.seed({ contacts: 50 });
		const check = async (trigger: Poller, token: RegExp) => {
			await pollOk(trigger);
			const memory = JSON.stringify(trigger.saved());
			expect(memory).not.toContain('@');
			const { records } = (Object.values(trigger.saved())[0] as IDataObject).erpPoll as { records: Record<string, string> };
			expect(Object.keys(records)).toHaveLength(50);
			for (const value of Object.values(records)) expect(value).toMatch(token);
		};
		await check(poller({ triggerOn: 'contact:recordAdded' }), /^$/);
		await check(poller({ triggerOn: 'contact:fieldValue', field: 'company', value: 'x' }), /^[01]$/);
		await check(poller({ triggerOn: 'contact:recordUpdated' }), /^[\w-]{4,}$/);
	});
});

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

	// A failed poll does not keep the next ones from running: the failed polls at the top, each followed by one that reports.
});
