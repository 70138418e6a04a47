import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/Erp/transport/client';
import { paginate } from '../../../../nodes/Erp/transport/paginate';
import { fakeClock, fakeContext, json } from '../fakes';

const records = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ({ id: from + i }));

/** A list service over `store()` that caps per_page at `cap` and reports meta honestly. */
function listService(store: () => IDataObject[], cap = 100, withMeta = true) {
	return (options: IHttpRequestOptions) => {
		const qs = options.qs as { page: number; per_page: number };
		const perPage = Math.min(qs.per_page, cap);
		const all = store();
		const data = all.slice((qs.page - 1) * perPage, qs.page * perPage);
		return json(200, withMeta ? { success: true, data, meta: { page: qs.page, per_page: perPage, total: all.length } } : { success: true, data });
	};
}

async function walk(responder: (options: IHttpRequestOptions, call: number) => ReturnType<typeof json>, limit?: number) {
	const { ctx, calls } = fakeContext(responder);
	const client = await ErpClient.create(ctx, {}, fakeClock());
	const pages: IDataObject[][] = [];
	for await (const page of paginate(client, { path: '/contacts', limit, itemIndex: 0 })) pages.push(page);
	const ids = pages.flat().map((r) => r.id);
	return { calls, pages, ids, asked: calls.map((c) => c.qs as { page: number; per_page: number }) };
}

describe('paginate', () => {
	it('an empty list costs one request', async () => {
		const { calls, ids } = await walk(listService(() => []));
		expect(calls).toHaveLength(1);
		expect(ids).toEqual([]);
	});

	it('stops at meta.total without asking for an empty page when total is an exact multiple', async () => {
		const { asked, ids } = await walk(listService(() => records(1, 200)));
		expect(asked).toEqual([
			{ page: 1, per_page: 100 },
			{ page: 2, per_page: 100 },
		]);
		expect(ids).toEqual(records(1, 200).map((r) => r.id));
	});

	it('follows a capped per_page from meta and misses nothing', async () => {
		const { calls, ids } = await walk(listService(() => records(1, 120), 50));
		expect(calls).toHaveLength(3);
		expect(ids).toEqual(records(1, 120).map((r) => r.id));
	});

	it('sends a Limit that fits one page as per_page, in one request', async () => {
		const { asked, ids } = await walk(listService(() => records(1, 500)), 30);
		expect(asked).toEqual([{ page: 1, per_page: 30 }]);
		expect(ids).toHaveLength(30);
	});

	it('stops as soon as a larger Limit is reached', async () => {
		const { asked, ids } = await walk(listService(() => records(1, 1000)), 250);
		expect(asked.map((q) => q.page)).toEqual([1, 2, 3]);
		expect(ids).toEqual(records(1, 250).map((r) => r.id));
	});

	it('follows a total that grows during the walk', async () => {
		let all = records(1, 150);
		const service = listService(() => all);
		const { ids } = await walk((options, call) => {
			if (call === 2) all = records(1, 230);
			return service(options);
		});
		expect(ids).toEqual(records(1, 230).map((r) => r.id));
	});

	it('never yields a record twice when an insert shifts the pages', async () => {
		let all = records(2, 201);
		const service = listService(() => all);
		const { ids } = await walk((options, call) => {
			// A record with a lower id appears before page 2 is read: page 2 starts one record earlier.
			if (call === 2) all = [{ id: 1 }, ...records(2, 201)];
			return service(options);
		});
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toHaveLength(200);
	});

	it('stops when the total shrinks below the pages read', async () => {
		let all = records(1, 250);
		const service = listService(() => all);
		const { calls } = await walk((options, call) => {
			if (call === 2) all = records(1, 180);
			return service(options);
		});
		expect(calls).toHaveLength(2);
	});

	it('reads a list without meta as one page when it is short', async () => {
		const { calls, ids } = await walk(listService(() => records(1, 7), 100, false));
		expect(calls).toHaveLength(1);
		expect(ids).toHaveLength(7);
	});

	it('stops when a service ignores page and repeats itself', async () => {
		const { calls, ids } = await walk(() => json(200, { data: records(1, 100) }));
		expect(calls).toHaveLength(2);
		expect(ids).toHaveLength(100);
	});

	it('refuses an answer that is not a list', async () => {
		await expect(walk(() => json(200, { success: true, data: { id: 1 } }))).rejects.toThrow(/not a list/);
	});
});
