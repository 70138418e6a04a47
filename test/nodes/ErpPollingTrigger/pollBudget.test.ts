import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Poller } from '../../../tooling/harness';
import { createContact, createProduct, memoryOf, pollOk, reported, usePollingHarness } from './harness';

/**
 * n8n 2.41 gives each poll a budget (getPollBudgetMs(); the durable scheduler abandons a poll past its deadline, and
 * saves nothing of it). Once the budget is nearly used the trigger starts no read that can wait: it returns what it
 * has, and the next poll goes on. The harness fakes the budget n8n-core's PollContext answers.
 */
describe('ERP Polling Trigger: a poll that fits its budget', () => {
	const { sandbox, poller } = usePollingHarness();

	async function products(count: number): Promise<number[]> {
		const ids: number[] = [];
		for (let i = 1; i <= count; i++) {
			const product = await createProduct(sandbox.api, { sku: `P-${i}`, low_stock_threshold: 10 });
			await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 20 });
			ids.push(product.id);
		}
		await sandbox.admin.setVariants(['no-stock-in-list']);
		return ids;
	}

	/** The poll's items and the products whose stock it read, in the order the reads started (Concurrency 1). */
	async function pollReading(trigger: Poller): Promise<{ items: INodeExecutionData[] | null; read: number[]; paths: string[] }> {
		const since = await sandbox.admin.lastRequestSeq();
		const items = await pollOk(trigger);
		const paths = (await sandbox.admin.requests(since)).map((r) => r.path);
		const read = paths.flatMap((path) => /^\/products\/(\d+)\/stock$/.exec(path)?.[1] ?? []).map(Number);
		return { items, read, paths };
	}

	const lowStock = (options: INodeParameters) =>
		({ triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold', options: { concurrency: 1, ...options } }) satisfies INodeParameters;

	it('a budget used up starts no stock read and changes no product; the next poll goes on where the last one stopped', async () => {
		const ids = await products(6);
		const trigger = poller(lowStock({ stockReadsPerPoll: 2 }));
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
		const ids = await products(8);
		const trigger = poller(lowStock({}));
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
		const ids = await products(3);
		await sandbox.admin.setStock({ product_id: ids[1], warehouse_id: 1, quantity: 2 }); // already low at activation
		const trigger = poller(lowStock({}));
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
