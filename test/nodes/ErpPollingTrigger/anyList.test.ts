import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MISSES_TO_FORGET } from '../../../nodes/ErpPollingTrigger/observe';
import type { Order } from '../../../sandbox/extensions/orders';
import type { Poller } from '../../../tooling/harness';
import type { VariantName } from '../../../tooling/harness/sandbox';
import { createOrder, memoryOf, pollOk, remembered, reported, usePollingHarness, withChangeBetweenPages } from './harness';

/**
 * Any list: the orders extension, an endpoint family the API document does not list, watched by List Path and ID
 * Field. What it shares with the known resources (Record Added and Updated, failed polls, restarts, overlapping polls,
 * short tokens) is proven once, in watchKinds.test.ts and guarantees.test.ts (ADDED_WATCHES); here what differs:
 * record.* events, ID Field, paging of any ERP, and records a scan missed are never looked up.
 */
const { sandbox, poller } = usePollingHarness({ extensions: ['orders'] });
let count = 0;
const order = (fields: IDataObject = {}) => createOrder(sandbox.api, { reference: `SO-T${++count}`, ...fields });
const orders = (parameters: INodeParameters, staticData?: IDataObject, scheduler?: 'classic' | 'durable') => poller({ listPath: '/orders', ...parameters }, staticData, scheduler);

describe('ERP Polling Trigger, any list: what it watches', () => {
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
		expect(reported(await pollOk(customer))).toEqual([`record.customer.Ostwind AG ${shipping.id}`]);
		expect(await pollOk(shipped)).toBeNull();
		expect(reported(items)).not.toContain(`record.shipped ${shippedBefore.id}`);
	});

	it('ID Field another than id: orders told apart and remembered by reference', async () => {
		await order({ reference: 'SO-2' });
		const trigger = orders({ triggerOn: 'list:recordUpdated', idField: 'reference', fieldsToWatch: 'status' });
		await pollOk(trigger);
		const added = await order({ reference: 'SO-10' });
		await sandbox.api.patch(`/orders/${added.id}`, { status: 'confirmed' });
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
		await sandbox.api.patch(`/orders/${withLines.id}`, { lines: [{ description: 'Chair', unit_price: 120 }, { description: 'Desk', unit_price: 450 }] });
		const items = (await pollOk(trigger)) ?? [];
		expect(items.map(({ json }) => [json.event, json.data])).toEqual([['record.created', { line: 2, sku: null, description: 'Desk', quantity: 1, unit_price: 450 }]]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('Fetch Test Event returns the record with the highest ID, text IDs by the numbers in them, and leaves the memory untouched', async () => {
		await order({ reference: 'SO-9' });
		const newest = await order({ reference: 'SO-10' });
		await order({ reference: 'SO-1' });
		const trigger = orders({ triggerOn: 'list:recordAdded', idField: 'reference' });
		expect((await trigger.testStep()).items?.map(({ json }) => (json.data as IDataObject).reference)).toEqual([newest.reference]);
		expect(trigger.inMemory()).toEqual({});
	});

	it('a changed List Path or ID Field takes a new baseline instead of comparing with the old one', async () => {
		const line = (description: string) => ({ description, unit_price: 1 });
		const one = await order({ reference: 'SO-1', lines: [line('Chair')] });
		const two = await order({ reference: 'SO-2', lines: [line('Chair'), line('Desk')] });
		const lines = (id: number) => ({ triggerOn: 'list:recordAdded', listPath: `/orders/${id}/lines`, idField: 'line' });
		const first = poller(lines(one.id));
		await pollOk(first);
		const second = poller(lines(two.id), first.saved());
		expect(await pollOk(second)).toEqual([]);
		expect(await pollOk(second)).toBeNull();
		const byId = orders({ triggerOn: 'list:recordAdded' });
		await pollOk(byId);
		const byReference = orders({ triggerOn: 'list:recordAdded', idField: 'reference' }, byId.saved());
		expect(await pollOk(byReference)).toEqual([]);
		expect(Object.keys(memoryOf(byReference).records as IDataObject).sort()).toEqual(['SO-1', 'SO-2']);
	});

	const pagings: VariantName[][] = [['small-pages'], ['strict-paging'], ['fixed-pages'], ['no-total'], ['newest-first'], ['small-pages', 'no-total']];
	it.each(pagings.map((chosen) => [chosen.join(' + '), chosen] as const))('other paging (%s): every order remembered once, each new one reported once', async (_, chosen) => {
		await sandbox.admin.setVariants([...chosen]);
		await sandbox.admin.seed({ orders: 120 });
		const trigger = orders({ triggerOn: 'list:recordAdded', idField: 'reference' });
		expect(await pollOk(trigger)).toEqual([]);
		expect(Object.keys(memoryOf(trigger).records as IDataObject)).toHaveLength(120);
		const added = [await order(), await order()];
		expect(reported(await pollOk(trigger)).sort()).toEqual(added.map((o) => `record.created ${o.id}`).sort());
		expect(await pollOk(trigger)).toBeNull();
	});
});

describe('ERP Polling Trigger, any list: a record no scan shows', () => {
	it.each(['classic', 'durable'] as const)(`%s scheduler: a deleted order is forgotten once ${MISSES_TO_FORGET} polls in a row missed it, saved with an empty execution; nothing is looked up`, async (scheduler) => {
		const [kept, deleted] = [await order(), await order()];
		const trigger = orders({ triggerOn: 'list:recordAdded' }, undefined, scheduler);
		await pollOk(trigger);
		await sandbox.api.delete(`/orders/${deleted.id}`);
		const since = await sandbox.admin.lastRequestSeq();
		for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
		expect(remembered(trigger)).toEqual([String(kept.id), String(deleted.id)]);
		expect(await pollOk(trigger)).toEqual([]);
		trigger.restart();
		expect(await pollOk(trigger)).toBeNull();
		expect(remembered(trigger)).toEqual([String(kept.id)]);
		expect(new Set((await sandbox.admin.requests(since)).map((r) => `${r.method} ${r.path}`))).toEqual(new Set(['GET /orders']));
	});

	// Pages of 2, one at a time, so that the change lands between two known pages.
	const options = { pageSize: 2, concurrency: 1 };
	const sixOrders = async () => {
		const made: Order[] = [];
		for (let i = 0; i < 6; i++) made.push(await order({ status: 'open' }));
		return made;
	};
	const ids = (made: Order[]) => made.map((o) => String(o.id));
	const lookups = async (since: number) => (await sandbox.admin.requests(since)).filter((r) => r.method === 'GET' && r.path !== '/orders');
	const deleteDuringPoll = (trigger: Poller, made: Order[]) => withChangeBetweenPages(sandbox, '/orders', () => pollOk(trigger), () => sandbox.api.delete(`/orders/${made[0].id}`));

	it('a delete during a poll hides the next order from that scan: kept without a lookup, never reported as new; the deleted one forgotten later', async () => {
		const made = await sixOrders();
		const trigger = orders({ triggerOn: 'list:recordAdded', options });
		await pollOk(trigger);
		const since = await sandbox.admin.lastRequestSeq();
		expect(await deleteDuringPoll(trigger, made)).toBeNull();
		// The scan read the deleted order on page 1 before the delete and missed the third (shifted onto page 1).
		expect(remembered(trigger)).toEqual(ids(made));
		expect(memoryOf(trigger).missed).toEqual({ [made[2].id]: 1 });
		for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
		expect(memoryOf(trigger).missed).toEqual({ [made[0].id]: MISSES_TO_FORGET - 1 });
		expect(await pollOk(trigger)).toEqual([]);
		expect(remembered(trigger)).toEqual(ids(made.slice(1)));
		expect(memoryOf(trigger)).not.toHaveProperty('missed');
		expect(await lookups(since)).toEqual([]);
		const added = await order();
		expect(reported(await pollOk(trigger))).toEqual([`record.created ${added.id}`]);
	});

	it('a change to an order that one scan missed is reported by the next poll, once, with its previous value', async () => {
		const made = await sixOrders();
		const trigger = orders({ triggerOn: 'list:recordUpdated', fieldsToWatch: 'status', options });
		await pollOk(trigger);
		const first = await withChangeBetweenPages(sandbox, '/orders', () => pollOk(trigger), async () => {
			await sandbox.api.patch(`/orders/${made[2].id}`, { status: 'confirmed' });
			await sandbox.api.delete(`/orders/${made[0].id}`);
		});
		expect(first).toBeNull();
		expect(memoryOf(trigger).missed).toEqual({ [made[2].id]: 1 });
		const next = (await pollOk(trigger)) ?? [];
		expect([reported(next), next[0].json.changes]).toEqual([[`record.updated ${made[2].id}`], { status: { previous: 'open', current: 'confirmed' } }]);
		expect(await pollOk(trigger)).toBeNull();
	});

	it('a delete during the first scan does not make an order already there look new later', async () => {
		const made = await sixOrders();
		const trigger = orders({ triggerOn: 'list:recordAdded', options });
		expect(await deleteDuringPoll(trigger, made)).toEqual([]);
		expect(remembered(trigger)).toEqual(expect.arrayContaining([String(made[2].id)]));
		for (let poll = 1; poll <= MISSES_TO_FORGET + 1; poll++) expect(reported(await pollOk(trigger))).toEqual([]);
	});

	it('deleting many at once costs no request per order: each poll reads the list only, and the deleted are forgotten together', async () => {
		await sandbox.admin.seed({ orders: 150 });
		const trigger = orders({ triggerOn: 'list:recordAdded' });
		await pollOk(trigger);
		for (let id = 1; id <= 130; id++) expect((await sandbox.api.delete(`/orders/${id}`)).status).toBe(200);
		const since = await sandbox.admin.lastRequestSeq();
		for (let poll = 1; poll < MISSES_TO_FORGET; poll++) expect(await pollOk(trigger)).toBeNull();
		expect(remembered(trigger)).toHaveLength(150);
		expect(await pollOk(trigger)).toEqual([]);
		expect(remembered(trigger)).toHaveLength(20);
		expect((await sandbox.admin.requests(since)).length).toBe(MISSES_TO_FORGET);
	});
});
