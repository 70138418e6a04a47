import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MISSES_TO_FORGET } from '../../../nodes/ErpPollingTrigger/observe';
import type { Order } from '../../../sandbox/extensions/orders';
import type { Poller } from '../../../tooling/harness';
import { type VariantName, waitFor } from '../../../tooling/harness/sandbox';
import { createOrder, memoryOf, pollOk, reported, usePollingHarness, withChangeBetweenPages } from './harness';

/**
 * Any list: the orders extension, an endpoint family the API document does not list (sandbox/extensions/), watched
 * by List Path and ID Field with the watches the known resources have; what each reports once, as record.* events.
 */
describe('ERP Polling Trigger, any list: what it watches', () => {
	const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });
	let count = 0;
	const order = (fields: IDataObject = {}) => createOrder(sandbox.api, { reference: `SO-T${++count}`, ...fields });
	const orders = (parameters: INodeParameters, staticData?: IDataObject) => poller({ listPath: '/orders', ...parameters }, staticData);

	it('Record Added: each new order once, as record.created with the order as the ERP lists it; none for the orders already there', async () => {
		const old = await order();
		const trigger = orders({ triggerOn: 'list:recordAdded' });
		// The baseline: nothing reported, an empty execution so that n8n saves it under any scheduler.
		expect(await pollOk(trigger)).toEqual([]);

		const a = await order({ customer: 'Ostwind AG' });
		const b = await order();
		const items = await pollOk(trigger);
		expect(reported(items)).toEqual([`record.created ${a.id}`, `record.created ${b.id}`]);
		const listed = (await sandbox.admin.records('orders')).find((o) => o.id === a.id);
		expect(items?.[0].json).toMatchObject({ event: 'record.created', data: listed });
		expect(Object.keys(items?.[0].json ?? {})).toEqual(['event', 'timestamp', 'deliveryKey', 'eventKey', 'data']);
		expect(await pollOk(trigger)).toBeNull();
		expect(reported(items)).not.toContain(`record.created ${old.id}`);
	});

	it('Record Updated on every field: a changed order once as record.updated, naming what changed; a write changing nothing reports nothing', async () => {
		const changed = await order({ status: 'open' });
		const untouched = await order();
		const trigger = orders({ triggerOn: 'list:recordUpdated' });
		await pollOk(trigger);

		expect((await sandbox.api.put(`/orders/${changed.id}`, { customer: changed.customer })).status).toBe(200);
		expect(await pollOk(trigger)).toBeNull();

		expect((await sandbox.api.patch(`/orders/${changed.id}`, { status: 'confirmed' })).status).toBe(200);
		const items = await pollOk(trigger);
		expect(reported(items)).toEqual([`record.updated ${changed.id}`]);
		const json = items?.[0].json as IDataObject;
		expect(Object.keys(json.changes as IDataObject).sort()).toEqual(['status', 'updated_at']);
		expect((json.data as IDataObject).changed_fields).toEqual(expect.arrayContaining(['status', 'updated_at']));
		expect(json.changes).toMatchObject({ status: { current: 'confirmed' } });
		expect(await pollOk(trigger)).toBeNull();
		expect(reported(items)).not.toContain(`record.updated ${untouched.id}`);
	});

	it('Record Updated with Fields to Watch: only those count, each change with its previous value', async () => {
		const watched = await order({ status: 'open', notes: 'first' });
		const trigger = orders({ triggerOn: 'list:recordUpdated', fieldsToWatch: 'status, total' });
		await pollOk(trigger);

		await sandbox.api.patch(`/orders/${watched.id}`, { notes: 'second' });
		expect(await pollOk(trigger)).toBeNull();
		await sandbox.api.patch(`/orders/${watched.id}`, { status: 'shipped', notes: 'third' });
		const items = await pollOk(trigger);
		expect(reported(items)).toEqual([`record.updated ${watched.id}`]);
		expect(items?.[0].json.changes).toEqual({ status: { previous: 'open', current: 'shipped' } });
	});

	it('Record Added or Updated: a new order created, a changed one updated, each once', async () => {
		const existing = await order({ total: 10 });
		const trigger = orders({ triggerOn: 'list:recordAddedOrUpdated', fieldsToWatch: 'total' });
		await pollOk(trigger);
		const added = await order();
		await sandbox.api.patch(`/orders/${existing.id}`, { total: 12.5 });
		expect(reported(await pollOk(trigger)).sort()).toEqual([`record.created ${added.id}`, `record.updated ${existing.id}`].sort());
		expect(await pollOk(trigger)).toBeNull();
	});

	it('Field Becomes a Value: record.shipped once when an order ships (the field status), not for one shipped before; record.<field>.<value> for another field', async () => {
		const shippedBefore = await order({ status: 'shipped' });
		const shipping = await order({ status: 'confirmed' });
		const shipped = orders({ triggerOn: 'list:fieldValue', field: 'status', value: 'shipped' });
		const customer = orders({ triggerOn: 'list:fieldValue', field: 'customer', value: 'Ostwind AG' });
		await pollOk(shipped);
		await pollOk(customer);

		await sandbox.api.patch(`/orders/${shipping.id}`, { status: 'shipped', customer: 'Ostwind AG' });
		const items = await pollOk(shipped);
		expect(reported(items)).toEqual([`record.shipped ${shipping.id}`]);
		expect(items?.[0].json.data).toMatchObject({ id: shipping.id, status: 'shipped', reference: shipping.reference });
		expect(reported(await pollOk(customer))).toEqual([`record.customer.Ostwind AG ${shipping.id}`]);
		expect(await pollOk(shipped)).toBeNull();
		expect(reported(items)).not.toContain(`record.shipped ${shippedBefore.id}`);
	});

	describe('ID Field', () => {
		it('another field than id: orders told apart by reference, remembered by it', async () => {
			await order({ reference: 'SO-2' });
			const trigger = orders({ triggerOn: 'list:recordUpdated', idField: 'reference', fieldsToWatch: 'status' });
			await pollOk(trigger);
			expect(Object.keys(memoryOf(trigger).records as IDataObject)).toEqual(['SO-2']);

			const added = await order({ reference: 'SO-10' });
			await sandbox.api.patch(`/orders/${added.id}`, { status: 'confirmed' });
			// New under Record Updated: learnt, not reported (an empty execution makes n8n save it).
			expect(await pollOk(trigger)).toEqual([]);
			await sandbox.api.patch(`/orders/${added.id}`, { status: 'shipped' });
			const items = await pollOk(trigger);
			expect(items?.map(({ json }) => `${String(json.event)} ${String((json.data as IDataObject).reference)}`)).toEqual(['record.updated SO-10']);
			expect(Object.keys(memoryOf(trigger).records as IDataObject).sort()).toEqual(['SO-10', 'SO-2']);
		});

		it('records without an id: the lines of an order, keyed by line', async () => {
			const withLines = await order({ lines: [{ description: 'Chair', unit_price: 120 }] });
			const trigger = poller({ triggerOn: 'list:recordAdded', listPath: `/orders/${withLines.id}/lines`, idField: 'line' });
			expect(await pollOk(trigger)).toEqual([]);
			await sandbox.api.patch(`/orders/${withLines.id}`, {
				lines: [
					{ description: 'Chair', unit_price: 120 },
					{ description: 'Desk', unit_price: 450 },
				],
			});
			const items = (await pollOk(trigger)) ?? [];
			expect(items.map(({ json }) => json.event)).toEqual(['record.created']);
			expect(items[0].json.data).toEqual({ line: 2, sku: null, description: 'Desk', quantity: 1, unit_price: 450 });
			expect(await pollOk(trigger)).toBeNull();
		});
	});

	// Report Existing on Publish: guarantees.test.ts (ADDED_WATCHES).
	describe('first activation and the test step', () => {
		it('Fetch Test Event returns the record with the highest ID, text IDs by the numbers in them, and leaves the memory untouched', async () => {
			await order({ reference: 'SO-9' });
			const newest = await order({ reference: 'SO-10' });
			await order({ reference: 'SO-1' });
			const trigger = orders({ triggerOn: 'list:recordAdded', idField: 'reference' });
			const fetched = await trigger.testStep();
			expect(fetched.items?.map(({ json }) => (json.data as IDataObject).reference)).toEqual([newest.reference]);
			expect(trigger.inMemory()).toEqual({});
		});

		it('a changed List Path or ID Field takes a new baseline instead of comparing with the old one', async () => {
			const line = (description: string) => ({ description, unit_price: 1 });
			const one = await order({ reference: 'SO-1', lines: [line('Chair')] });
			const two = await order({ reference: 'SO-2', lines: [line('Chair'), line('Desk')] });
			const lines = (id: number) => ({ triggerOn: 'list:recordAdded', listPath: `/orders/${id}/lines`, idField: 'line' });
			const first = poller(lines(one.id));
			await pollOk(first);
			// The saved workflow with another List Path, activated again with the old static data: line 2 is not new.
			const second = poller(lines(two.id), first.saved());
			expect(await pollOk(second)).toEqual([]);
			expect(await pollOk(second)).toBeNull();

			const byId = orders({ triggerOn: 'list:recordAdded' });
			await pollOk(byId);
			// ID Field changed: the references are not new orders.
			const byReference = orders({ triggerOn: 'list:recordAdded', idField: 'reference' }, byId.saved());
			expect(await pollOk(byReference)).toEqual([]);
			expect(Object.keys(memoryOf(byReference).records as IDataObject).sort()).toEqual(['SO-1', 'SO-2']);
		});
	});

	const pagings: VariantName[][] = [['small-pages'], ['strict-paging'], ['fixed-pages'], ['no-total'], ['newest-first'], ['small-pages', 'no-total']];

	it.each(pagings.map((chosen) => [chosen.join(' + '), chosen] as const))(
		'other paging (%s), orders told apart by reference: every order remembered once, each new one reported once',
		async (_, chosen) => {
			await sandbox.admin.setVariants([...chosen]);
			await sandbox.admin.seed({ orders: 120 });
			const trigger = orders({ triggerOn: 'list:recordAdded', idField: 'reference' });
			expect(await pollOk(trigger)).toEqual([]);
			expect(Object.keys(memoryOf(trigger).records as IDataObject)).toHaveLength(120);
			const added = [await order(), await order()];
			expect(reported(await pollOk(trigger)).sort()).toEqual(added.map((o) => `record.created ${o.id}`).sort());
			expect(await pollOk(trigger)).toBeNull();
		},
	);

	it('remembers short tokens per ID, never whole records', async () => {
		await sandbox.admin.seed({ orders: 50 });
		const check = async (parameters: INodeParameters, token: RegExp) => {
			const trigger = orders(parameters);
			await pollOk(trigger);
			const memory = JSON.stringify(trigger.saved());
			expect(memory).not.toContain('SO-0');
			const { records } = memoryOf(trigger) as { records: Record<string, string> };
			expect(Object.keys(records)).toHaveLength(50);
			for (const value of Object.values(records)) expect(value).toMatch(token);
		};
		await check({ triggerOn: 'list:recordAdded' }, /^$/);
		await check({ triggerOn: 'list:fieldValue', field: 'status', value: 'shipped' }, /^[01]$/);
		await check({ triggerOn: 'list:recordUpdated' }, /^[\w-]{4,}$/);
	});
});

/**
 * Any list keeps the known resources' promises (guarantees.test.ts, badInput.test.ts):
 * nothing missed, nothing twice, across polls, failed polls, n8n restarts under either scheduler, and polls that
 * overlap. Failed polls, the baseline across a restart and durable cursors are in guarantees.test.ts (ADDED_WATCHES);
 * the failure a 429 declares to n8n is the transport's for every watch (badInput.test.ts, contacts).
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
});

/**
 * Any list, as movingRecords.test.ts for the known resources: creates and deletes during a scan shift records between
 * pages. Nothing says a record of any list can be read by its ID, so a record a scan missed is not looked up: it stays
 * remembered, unchanged, and is forgotten only once MISSES_TO_FORGET polls in a row missed it.
 */
describe('ERP Polling Trigger, any list: records moving while a scan runs', () => {
	const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });
	// Pages of 2, one at a time, so that the change lands between two known pages.
	const options = { pageSize: 2, concurrency: 1 };
	let count = 0;
	const order = (fields: IDataObject = {}) => createOrder(sandbox.api, { reference: `SO-M${++count}`, ...fields });
	const sixOrders = async () => {
		const made: Order[] = [];
		for (let i = 0; i < 6; i++) made.push(await order({ status: 'open' }));
		return made;
	};

	const remembered = (trigger: Poller): string[] => Object.keys(memoryOf(trigger).records as IDataObject).sort((a, b) => Number(a) - Number(b));
	const ids = (made: Order[]) => made.map((o) => String(o.id));

	/** The reads since `since` other than list pages: a lookup by ID would be one. */
	const lookups = async (since: number) => (await sandbox.admin.requests(since)).filter((r) => r.method === 'GET' && r.path !== '/orders');

	it('a delete during a poll hides the next order from that scan: kept without a lookup, never reported as new; the deleted one forgotten later', async () => {
		const made = await sixOrders();
		const trigger = poller({ triggerOn: 'list:recordAdded', listPath: '/orders', options });
		await pollOk(trigger);

		const since = await sandbox.admin.lastRequestSeq();
		const first = await withChangeBetweenPages(
			sandbox,
			'/orders',
			() => pollOk(trigger),
			() => sandbox.api.delete(`/orders/${made[0].id}`),
		);
		expect(first).toBeNull();
		// The scan read the deleted order on page 1 before the delete, and missed the third (shifted onto page 1): it
		// stays remembered, counted once.
		expect(remembered(trigger)).toEqual(ids(made));
		expect(memoryOf(trigger).missed).toEqual({ [made[2].id]: 1 });

		// The next scans show the third again (its count gone) and miss the deleted one, forgotten at its last miss.
		for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
		expect(memoryOf(trigger).missed).toEqual({ [made[0].id]: MISSES_TO_FORGET - 1 });
		expect(remembered(trigger)).toEqual(ids(made));
		expect(await pollOk(trigger)).toEqual([]);
		expect(remembered(trigger)).toEqual(ids(made.slice(1)));
		expect(memoryOf(trigger)).not.toHaveProperty('missed');
		expect(await lookups(since)).toEqual([]);

		const added = await order();
		expect(reported(await pollOk(trigger))).toEqual([`record.created ${added.id}`]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('a change to an order that one scan missed is reported by the next poll, once, with its previous value', async () => {
		const made = await sixOrders();
		const trigger = poller({ triggerOn: 'list:recordUpdated', listPath: '/orders', fieldsToWatch: 'status', options });
		await pollOk(trigger);

		const first = await withChangeBetweenPages(
			sandbox,
			'/orders',
			() => pollOk(trigger),
			async () => {
				await sandbox.api.patch(`/orders/${made[2].id}`, { status: 'confirmed' });
				await sandbox.api.delete(`/orders/${made[0].id}`);
			},
		);
		expect(first).toBeNull();
		expect(memoryOf(trigger).missed).toEqual({ [made[2].id]: 1 });
		const next = (await pollOk(trigger)) ?? [];
		expect(reported(next)).toEqual([`record.updated ${made[2].id}`]);
		expect(next[0].json.changes).toEqual({ status: { previous: 'open', current: 'confirmed' } });
		expect(await pollOk(trigger)).toBeNull();
	});

	it('a delete during the first scan does not make an order already there look new later', async () => {
		const made = await sixOrders();
		const trigger = poller({ triggerOn: 'list:recordAdded', listPath: '/orders', options });
		const baseline = await withChangeBetweenPages(
			sandbox,
			'/orders',
			() => pollOk(trigger),
			() => sandbox.api.delete(`/orders/${made[0].id}`),
		);
		expect(baseline).toEqual([]);
		expect(remembered(trigger)).toEqual(expect.arrayContaining([String(made[2].id)]));
		for (let poll = 1; poll <= MISSES_TO_FORGET + 1; poll++) expect(reported(await pollOk(trigger))).toEqual([]);
	});

	it('an ERP listing newest first: a create during a scan shifts every later page, and each new order is reported once', async () => {
		await sandbox.admin.setVariants(['newest-first']);
		await sixOrders();
		const trigger = poller({ triggerOn: 'list:recordAdded', listPath: '/orders', options });
		await pollOk(trigger);

		const before = await order();
		let during: Order | undefined;
		const first = await withChangeBetweenPages(
			sandbox,
			'/orders',
			() => pollOk(trigger),
			async () => {
				during = await order();
			},
		);
		const second = await pollOk(trigger);
		const third = await pollOk(trigger);
		const all = [...reported(first), ...reported(second), ...reported(third)];
		expect(all.sort()).toEqual([`record.created ${before.id}`, `record.created ${String(during?.id)}`].sort());
	});

	it('deleting many at once costs no request per order: each poll reads the list only, and the deleted are forgotten together', async () => {
		await sandbox.admin.seed({ orders: 150 });
		const trigger = poller({ triggerOn: 'list:recordAdded', listPath: '/orders' });
		await pollOk(trigger);
		for (let id = 1; id <= 130; id++) expect((await sandbox.api.delete(`/orders/${id}`)).status).toBe(200);

		const since = await sandbox.admin.lastRequestSeq();
		for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
		expect(remembered(trigger)).toHaveLength(150);
		expect(await pollOk(trigger)).toEqual([]);
		expect(remembered(trigger)).toHaveLength(20);
		expect(await lookups(since)).toEqual([]);
		expect((await sandbox.admin.requests(since)).length).toBe(MISSES_TO_FORGET);
	});
});
