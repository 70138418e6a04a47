import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Poller } from '../../../tooling/harness';
import { createProduct, memoryOf, pollOk, reported, usePollingHarness } from './harness';

/**
 * Stock Below Threshold against an ERP whose product list does not carry the stock (the no-stock-in-list variant):
 * at most Stock Reads per Poll products' stock a poll, in turn.
 */
describe('ERP Polling Trigger: stock read one by one, spread over polls', () => {
	const { sandbox, poller } = usePollingHarness();

	/** Seven products at threshold 10 with 20 in stock; the ERP's product list without stock. */
	async function products(): Promise<number[]> {
		const ids: number[] = [];
		for (let i = 1; i <= 7; i++) {
			const product = await createProduct(sandbox.api, { sku: `P-${i}`, low_stock_threshold: 10 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 20 + i });
			ids.push(product.id);
		}
		await sandbox.admin.setVariants(['no-stock-in-list']);
		return ids;
	}

	/** The poll's items and the products whose stock it read, in the order the reads started (Concurrency 1). */
	async function pollReading(trigger: Poller): Promise<{ items: INodeExecutionData[] | null; read: number[] }> {
		const since = await sandbox.admin.lastRequestSeq();
		const items = await pollOk(trigger);
		const read = (await sandbox.admin.requests(since)).flatMap((r) => /^\/products\/(\d+)\/stock$/.exec(r.path)?.[1] ?? []).map(Number);
		return { items, read };
	}

	const three = { triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold', options: { stockReadsPerPoll: 3, concurrency: 1 } } satisfies INodeParameters;

	it('the first look reads every product; then 3 a poll, in turn, so each is read within ceil(7 / 3) = 3 polls', async () => {
		const ids = await products();
		const trigger = poller(three);
		expect((await pollReading(trigger)).read).toEqual(ids);
		const rounds = [await pollReading(trigger), await pollReading(trigger), await pollReading(trigger), await pollReading(trigger)];
		expect(rounds.map((r) => r.read)).toEqual([ids.slice(0, 3), ids.slice(3, 6), [ids[6], ids[0], ids[1]], ids.slice(2, 5)]);
		expect(new Set(rounds.slice(0, 3).flatMap((r) => r.read))).toEqual(new Set(ids));
		expect(memoryOf(trigger).stockField).toBeUndefined();
	});

	it('a crossing is reported once, by the poll that reads the product; the others keep their token; re-armed as before', async () => {
		const ids = await products();
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
		await products();
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
