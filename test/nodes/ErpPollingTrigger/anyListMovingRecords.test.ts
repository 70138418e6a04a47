import type { IDataObject } from 'n8n-workflow';

import { MISSES_TO_FORGET } from '../../../nodes/ErpPollingTrigger/observe';
import type { Order } from '../../../sandbox/extensions/orders';
import type { Poller } from '../../../tooling/harness';
import { createOrder, memoryOf, pollOk, reported, usePollingHarness, withChangeBetweenPages } from './harness';

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
