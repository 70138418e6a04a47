import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Poller } from '../../../tooling/harness';
import { createProduct, memoryOf, pollOk, reported, usePollingHarness } from './harness';

/** Stock Below Threshold against an ERP whose product list carries each product's total stock (the sandbox's stock_total). */
describe('ERP Polling Trigger: the stock from the product list', () => {
	const { sandbox, poller } = usePollingHarness();

	/** Five products at threshold 10 with different stock (50, 40, 30, 20, 15), each over two warehouses. */
	async function stockedProducts(): Promise<number[]> {
		const ids: number[] = [];
		for (const [i, total] of [50, 40, 30, 20, 15].entries()) {
			const product = await createProduct(sandbox.api, { sku: `P-${i}`, low_stock_threshold: 10 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: total - 5 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 2, quantity: 5 });
			ids.push(product.id);
		}
		return ids;
	}

	/** The poll's items and the stock requests it sent. */
	async function pollCounting(trigger: Poller): Promise<{ items: Awaited<ReturnType<typeof pollOk>>; stockReads: number; requests: number }> {
		const since = await sandbox.admin.lastRequestSeq();
		const items = await pollOk(trigger);
		const requests = await sandbox.admin.requests(since);
		return { items, stockReads: requests.filter((r) => r.path.endsWith('/stock')).length, requests: requests.length };
	}

	const setTotal = async (productId: number, total: number) => {
		await sandbox.admin.setStock({ product_id: productId, warehouse_id: 1, quantity: total });
		await sandbox.admin.setStock({ product_id: productId, warehouse_id: 2, quantity: 0 });
	};
	const memory = (trigger: Poller): IDataObject => memoryOf(trigger);
	const lowStock = { triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold' } satisfies INodeParameters;

	it('finds the field from a sample at the first look; later polls scan the list once, with one stock read to re-check it', async () => {
		const [, , third] = await stockedProducts();
		const trigger = poller(lowStock);
		const first = await pollCounting(trigger);
		expect(first.stockReads).toBeLessThanOrEqual(5);
		expect(memory(trigger).stockField).toBe('stock_total');

		await setTotal(third, 5);
		const crossing = await pollCounting(trigger);
		expect(reported(crossing.items)).toEqual([`product.low_stock ${third}`]);
		expect(crossing.items?.[0].json.data).toMatchObject({ stock_total: 5, low_stock_threshold: 10 });
		expect(crossing.stockReads).toBeLessThanOrEqual(1);
		expect(crossing.requests).toBe(1 + crossing.stockReads);

		await setTotal(third, 4);
		expect(await pollOk(trigger)).toBeNull(); // still low: not twice
		await setTotal(third, 12);
		expect(await pollOk(trigger)).toEqual([]); // armed again, saved
		await setTotal(third, 9);
		expect(reported(await pollOk(trigger))).toEqual([`product.low_stock ${third}`]);
	});

	it('a Stock Field the user names: no stock request at all, the first look included', async () => {
		const [first] = await stockedProducts();
		const trigger = poller({ ...lowStock, options: { stockField: 'stock_total' } });
		expect((await pollCounting(trigger)).stockReads).toBe(0);
		await setTotal(first, 3);
		const crossing = await pollCounting(trigger);
		expect(reported(crossing.items)).toEqual([`product.low_stock ${first}`]);
		expect(crossing).toMatchObject({ stockReads: 0, requests: 1 });
		expect((await pollCounting(trigger)).items).toBeNull();
	});

	it('a Stock Field the products do not have: an error naming the option and the fix, nothing stored', async () => {
		const [first] = await stockedProducts();
		const trigger = poller({ ...lowStock, options: { stockField: 'on_hand' } });
		const { error } = await trigger.poll();
		expect(error?.message).toBe(
			`Stock Field: product ${first} has no number in "on_hand" (null); enter the product field holding its total stock, or leave Stock Field empty to let the node find it or read each product's stock`,
		);
		expect(trigger.saved()).toEqual({});
	});

	it('a found field that no longer agrees with the stock read one by one is dropped; that poll reads each product', async () => {
		const ids = await stockedProducts();
		// Available stock (quantity less reserved) equals stock_total only while nothing is reserved.
		const trigger = poller({ ...lowStock, options: { quantityField: 'available' } });
		await pollOk(trigger);
		expect(memory(trigger).stockField).toBe('stock_total');

		for (const id of ids) await sandbox.admin.setStock({ product_id: id, warehouse_id: 3, quantity: 5, reserved: 5 });
		await sandbox.admin.setStock({ product_id: ids[4], warehouse_id: 1, quantity: 4 }); // available 9: low; stock_total 14 says not
		const dropped = await pollCounting(trigger);
		expect(memory(trigger).stockField).toBeUndefined();
		expect(dropped.stockReads).toBe(ids.length);
		expect(reported(dropped.items)).toEqual([`product.low_stock ${ids[4]}`]);
	});

	it('a field that disappears from the list is dropped, and the stock read one by one', async () => {
		const [first] = await stockedProducts();
		const trigger = poller(lowStock);
		await pollOk(trigger);
		expect(memory(trigger).stockField).toBe('stock_total');
		await sandbox.admin.setVariants(['no-stock-in-list']);
		await setTotal(first, 2);
		const after = await pollCounting(trigger);
		expect(reported(after.items)).toEqual([`product.low_stock ${first}`]);
		expect(after.stockReads).toBe(5);
		expect(memory(trigger).stockField).toBeUndefined();
	});
});
