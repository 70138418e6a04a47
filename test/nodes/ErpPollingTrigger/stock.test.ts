import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Poller } from '../../../tooling/harness';
import { createContact, createProduct, memoryOf, pollOk, reported, usePollingHarness } from './harness';

const { sandbox, poller } = usePollingHarness();

/** Products at threshold 10, one per total (warehouse 1; `split`: five of it in warehouse 2); `unlisted`: the ERP's product list without stock. */
async function products(totals: number[], { split = false, unlisted = false } = {}): Promise<number[]> {
	const ids: number[] = [];
	for (const [i, total] of totals.entries()) {
		const product = await createProduct(sandbox.api, { sku: `P-${i}`, low_stock_threshold: 10 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: split ? total - 5 : total });
		if (split) await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 5 });
		ids.push(product.id);
	}
	if (unlisted) await sandbox.admin.setVariants(['no-stock-in-list']);
	return ids;
}

/** The poll's items, the products whose stock it read (in the order the reads started), and every path it asked. */
async function pollReading(trigger: Poller) {
	const since = await sandbox.admin.lastRequestSeq();
	const items = await pollOk(trigger);
	const paths = (await sandbox.admin.requests(since)).map((r) => r.path);
	const read = paths.flatMap((path) => /^\/products\/(\d+)\/stock$/.exec(path)?.[1] ?? []).map(Number);
	return { items, read, paths, stockReads: read.length, requests: paths.length };
}

const lowStock = (options: INodeParameters = {}) =>
	({ triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold', options }) satisfies INodeParameters;

/** Stock Below Threshold against an ERP whose product list carries each product's total stock (the sandbox's stock_total). */
describe('ERP Polling Trigger: the stock from the product list', () => {
	const stockedProducts = () => products([50, 40, 30, 20, 15], { split: true });
	const setTotal = async (productId: number, total: number) => {
		await sandbox.admin.setStock({ product_id: productId, warehouse_id: 1, quantity: total });
		await sandbox.admin.setStock({ product_id: productId, warehouse_id: 2, quantity: 0 });
	};

	it('finds the field from a sample at the first look; later polls scan the list once, with one stock read to re-check it', async () => {
		const [, , third] = await stockedProducts();
		const trigger = poller(lowStock());
		const first = await pollReading(trigger);
		expect(first.stockReads).toBeLessThanOrEqual(5);
		expect(memoryOf(trigger).stockField).toBe('stock_total');

		await setTotal(third, 5);
		const crossing = await pollReading(trigger);
		expect(reported(crossing.items)).toEqual([`product.low_stock ${third}`]);
		expect(crossing.items?.[0].json.data).toMatchObject({ stock_total: 5, low_stock_threshold: 10 });
		expect(crossing.stockReads).toBeLessThanOrEqual(1);
		expect(crossing.requests).toBe(1 + crossing.stockReads);

		await setTotal(third, 4);
		expect(await pollOk(trigger)).toBeNull(); // still low: not twice
		await setTotal(third, 10);
		expect(await pollOk(trigger)).toEqual([]); // at the threshold: armed again, saved
		await setTotal(third, 9);
		expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${third}`]);
	});

	it('a Stock Field the user names: no stock request at all, the first look included', async () => {
		const [first] = await stockedProducts();
		const trigger = poller(lowStock({ stockField: 'stock_total' }));
		expect((await pollReading(trigger)).stockReads).toBe(0);
		await setTotal(first, 3);
		const crossing = await pollReading(trigger);
		expect(reported(crossing.items)).toEqual([`product.low_stock ${first}`]);
		expect(crossing).toMatchObject({ stockReads: 0, requests: 1 });
		expect((await pollReading(trigger)).items).toBeNull();
	});

	it('a found field that no longer agrees with the stock read one by one is dropped; that poll reads each product', async () => {
		const ids = await stockedProducts();
		// Available stock (quantity less reserved) equals stock_total only while nothing is reserved.
		const trigger = poller(lowStock({ quantityField: 'available' }));
		await pollOk(trigger);
		expect(memoryOf(trigger).stockField).toBe('stock_total');

		for (const id of ids) await sandbox.admin.setStock({ product_id: id, warehouse_id: 3, quantity: 5, reserved: 5 });
		await sandbox.admin.setStock({ product_id: ids[4], warehouse_id: 1, quantity: 4 }); // available 9: low; stock_total 14 says not
		const dropped = await pollReading(trigger);
		expect(memoryOf(trigger).stockField).toBeUndefined();
		expect(dropped.stockReads).toBe(ids.length);
		expect(reported(dropped.items)).toEqual([`product.low_stock ${ids[4]}`]);
	});

	it('a field that disappears from the list is dropped, and the stock read one by one', async () => {
		const [first] = await stockedProducts();
		const trigger = poller(lowStock());
		await pollOk(trigger);
		expect(memoryOf(trigger).stockField).toBe('stock_total');
		await sandbox.admin.setVariants(['no-stock-in-list']);
		await setTotal(first, 2);
		const after = await pollReading(trigger);
		expect(reported(after.items)).toEqual([`product.low_stock ${first}`]);
		expect(after.stockReads).toBe(5);
		expect(memoryOf(trigger).stockField).toBeUndefined();
	});
});

/**
 * Stock Below Threshold against an ERP whose product list does not carry the stock (the no-stock-in-list variant):
 * at most Stock Reads per Poll products' stock a poll, in turn.
 */
describe('ERP Polling Trigger: stock read one by one, spread over polls', () => {
	/** Seven products with 21 to 27 in stock; the ERP's product list without stock. */
	const seven = () => products([21, 22, 23, 24, 25, 26, 27], { unlisted: true });
	const three = lowStock({ stockReadsPerPoll: 3, concurrency: 1 });

	it('the first look reads every product; then 3 a poll, in turn, so each is read within ceil(7 / 3) = 3 polls', async () => {
		const ids = await seven();
		const trigger = poller(three);
		expect((await pollReading(trigger)).read).toEqual(ids);
		const rounds = [await pollReading(trigger), await pollReading(trigger), await pollReading(trigger), await pollReading(trigger)];
		expect(rounds.map((r) => r.read)).toEqual([ids.slice(0, 3), ids.slice(3, 6), [ids[6], ids[0], ids[1]], ids.slice(2, 5)]);
		expect(new Set(rounds.slice(0, 3).flatMap((r) => r.read))).toEqual(new Set(ids));
		expect(memoryOf(trigger).stockField).toBeUndefined();
	});

	it('a crossing is reported once, by the poll that reads the product; the others keep their token; re-armed as before', async () => {
		const ids = await seven();
		const trigger = poller(three);
		await pollOk(trigger);
		const records = memoryOf(trigger).records;

		await sandbox.admin.setStock({ product_id: ids[4], warehouse_id: 1, quantity: 3 });
		const first = await pollReading(trigger); // reads 1-3
		expect(first.items).toBeNull();
		expect(memoryOf(trigger).records).toEqual(records);
		expect(reported((await pollReading(trigger)).items)).toEqual([`product.low_stock ${ids[4]}`]); // reads 4-6
		for (let i = 0; i < 4; i++) expect((await pollReading(trigger)).items).toBeNull(); // each product read again: nothing twice

		await sandbox.admin.setStock({ product_id: ids[4], warehouse_id: 1, quantity: 30 });
		let armed: INodeExecutionData[] | null = null;
		for (let i = 0; i < 3 && armed === null; i++) armed = (await pollReading(trigger)).items;
		expect(armed).toEqual([]); // armed again, within 3 polls, and saved
		await sandbox.admin.setStock({ product_id: ids[4], warehouse_id: 1, quantity: 1 });
		const later = [];
		for (let i = 0; i < 3; i++) later.push(...reported((await pollReading(trigger)).items));
		expect(later).toEqual([`product.low_stock ${ids[4]}`]);
	});

	it('a new product is read in its turn and reported when it is already low', async () => {
		await seven();
		const trigger = poller(three);
		await pollOk(trigger);
		expect((await pollReading(trigger)).read).toEqual([1, 2, 3]);
		const added = await createProduct(sandbox.api, { sku: 'NEW-1', low_stock_threshold: 10 });
		const seen = [];
		for (let i = 0; i < 2; i++) seen.push(reported((await pollReading(trigger)).items));
		// Products 4 to 6, then 7, 8 and 1.
		expect(seen).toEqual([[], [`product.low_stock ${added.id}`]]);
	});
});

/**
 * n8n 2.41 gives each poll a budget (getPollBudgetMs(); the durable scheduler abandons a poll past its deadline, and
 * saves nothing of it). Once the budget is nearly used the trigger starts no read that can wait: it returns what it
 * has, and the next poll goes on. The harness fakes the budget n8n-core's PollContext answers.
 */
describe('ERP Polling Trigger: a poll that fits its budget', () => {
	const twenties = (count: number) => products(Array(count).fill(20), { unlisted: true });

	it('a budget used up starts no stock read and changes no product; the next poll goes on where the last one stopped', async () => {
		const ids = await twenties(6);
		const trigger = poller(lowStock({ stockReadsPerPoll: 2, concurrency: 1 }));
		await pollOk(trigger);
		expect((await pollReading(trigger)).read).toEqual(ids.slice(0, 2));
		const memory = memoryOf(trigger);

		await sandbox.admin.setStock({ product_id: ids[2], warehouse_id: 1, quantity: 1 });
		trigger.setPollBudgetMs(0);
		const starved = await pollReading(trigger);
		expect(starved).toMatchObject({ items: null, read: [] });
		expect(memoryOf(trigger)).toEqual(memory);

		trigger.setPollBudgetMs(undefined);
		const next = await pollReading(trigger);
		expect(next.read).toEqual(ids.slice(2, 4));
		expect(reported(next.items)).toEqual([`product.low_stock ${ids[2]}`]);
	});

	it('a budget running out mid-poll: the reads started are the first of the turn, and the next poll reads on from the last', async () => {
		const ids = await twenties(8);
		const trigger = poller(lowStock({ concurrency: 1 }));
		await pollOk(trigger);
		await sandbox.admin.setFaults({ latencyMs: 150 });
		// 3/4 of 1 s: the list (150 ms), then reads of 150 ms each until 750 ms.
		trigger.setPollBudgetMs(1_000);
		const cut = (await pollReading(trigger)).read;
		expect(cut.length).toBeGreaterThan(0);
		expect(cut.length).toBeLessThan(ids.length);
		expect(cut).toEqual(ids.slice(0, cut.length));

		trigger.setPollBudgetMs(undefined);
		expect((await pollReading(trigger)).read).toEqual([...ids.slice(cut.length), ...ids.slice(0, cut.length)]);
	});

	it('the first look with its budget used up: the products wait for their first read, which takes note and reports nothing', async () => {
		const ids = await twenties(3);
		await sandbox.admin.setStock({ product_id: ids[1], warehouse_id: 1, quantity: 2 }); // already low at activation
		const trigger = poller(lowStock({ concurrency: 1 }));
		trigger.setPollBudgetMs(0);
		const baseline = await pollReading(trigger);
		expect(baseline).toMatchObject({ items: [], read: [] });
		expect(memoryOf(trigger).records).toEqual(Object.fromEntries(ids.map((id) => [String(id), '?'])));

		trigger.setPollBudgetMs(undefined);
		// Nothing to report, but an execution so that n8n saves the first reads (a restart must not take them as first again).
		expect(await pollReading(trigger)).toMatchObject({ items: [], read: ids });
		expect(trigger.saved()).toEqual(trigger.inMemory());
		await sandbox.admin.setStock({ product_id: ids[0], warehouse_id: 1, quantity: 3 });
		expect(reported((await pollReading(trigger)).items)).toEqual([`product.low_stock ${ids[0]}`]);
	});

	it('remembered records missing from the list are not looked up once the budget is used; they stay remembered until a later poll', async () => {
		const [first, second] = [await createContact(sandbox.api), await createContact(sandbox.api, { first_name: 'Ben' })];
		const trigger = poller({ triggerOn: 'contact:recordAdded', options: { concurrency: 1 } });
		await pollOk(trigger);
		await sandbox.api.delete(`/contacts/${second.id}`);

		trigger.setPollBudgetMs(0);
		const starved = await pollReading(trigger);
		expect(starved.paths).toEqual(['/contacts']);
		expect(Object.keys(memoryOf(trigger).records as object)).toEqual([String(first.id), String(second.id)]);

		trigger.setPollBudgetMs(undefined);
		expect((await pollReading(trigger)).paths).toEqual(['/contacts', `/contacts/${second.id}`]);
		expect(Object.keys(memoryOf(trigger).records as object)).toEqual([String(first.id)]);
	});
});
