import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/Erp/transport/client';
import { paginate } from '../../../../nodes/Erp/transport/paginate';
import type { RawResponse } from '../../../../nodes/Erp/transport/types';
import { fakeClock, fakeContext, json } from '../fakes';

const records = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ({ id: from + i }));

/** Wraps a responder so that each answer takes a few event-loop turns, counting the requests open at once. */
function slow(responder: (options: IHttpRequestOptions, call: number) => RawResponse) {
	const seen = { open: 0, mostOpen: 0 };
	const answer = async (options: IHttpRequestOptions, call: number) => {
		seen.open++;
		seen.mostOpen = Math.max(seen.mostOpen, seen.open);
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
		seen.open--;
		return responder(options, call);
	};
	return { answer, seen };
}

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

/** A list service of `before` records that holds `after` records from request number `call` on. */
function listChangingAt(call: number, before: number, after: number) {
	let all = records(1, before);
	const service = listService(() => all);
	return (options: IHttpRequestOptions, n: number) => {
		if (n === call) all = records(1, after);
		return service(options);
	};
}

async function walk(
	responder: (options: IHttpRequestOptions, call: number) => RawResponse | Promise<RawResponse>,
	limit?: number,
	concurrency = 1,
) {
	const { ctx, calls } = fakeContext(responder);
	const client = await ErpClient.create(ctx, { concurrency }, fakeClock());
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
		const { ids } = await walk(listChangingAt(2, 150, 230));
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
		const { calls } = await walk(listChangingAt(2, 250, 180));
		expect(calls).toHaveLength(2);
	});

	it('reads a list without meta as one page when it is short', async () => {
		const { calls, ids } = await walk(listService(() => records(1, 7), 100, false));
		expect(calls).toHaveLength(1);
		expect(ids).toHaveLength(7);
	});

	it('goes past a page of repeats when as many records were inserted ahead of it', async () => {
		const original = records(1, 300);
		let all = original;
		const service = listService(() => all);
		const { ids } = await walk((options, call) => {
			// Newest first: 100 new contacts land at the front after page 1 was read, so page 2 repeats page 1.
			if (call === 2) all = [...records(1001, 1100), ...original];
			return service(options);
		});
		expect(ids).toEqual(original.map((r) => r.id));
	});

	it('stops when a service answers another page than asked, even with a total', async () => {
		const { calls, ids } = await walk(() => json(200, { data: records(1, 100), meta: { page: 1, per_page: 100, total: 5000 } }));
		expect(calls).toHaveLength(2);
		expect(ids).toHaveLength(100);
	});

	it('stops when a service ignores page and repeats itself', async () => {
		const { calls, ids } = await walk(() => json(200, { data: records(1, 100) }));
		expect(calls).toHaveLength(2);
		expect(ids).toHaveLength(100);
	});

	describe('with Concurrency above 1', () => {
		it('reads the pages meta.total names ahead, never more at once than Concurrency, and yields them in order', async () => {
			const { answer, seen } = slow(listService(() => records(1, 1000)));
			const { asked, ids } = await walk(answer, undefined, 4);
			expect(ids).toEqual(records(1, 1000).map((r) => r.id));
			expect(asked.map((q) => q.page).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
			expect(seen.mostOpen).toBe(4);
		});

		it('asks for the first page alone, then only for pages a Limit still needs', async () => {
			const { answer, seen } = slow(listService(() => records(1, 1000)));
			const { asked, ids } = await walk(answer, 250, 8);
			expect(asked.map((q) => q.page).sort((a, b) => a - b)).toEqual([1, 2, 3]);
			expect(ids).toEqual(records(1, 250).map((r) => r.id));
			expect(seen.mostOpen).toBe(2);
		});

		it('follows a capped per_page and misses nothing', async () => {
			const { answer } = slow(listService(() => records(1, 333), 30));
			const { asked, ids } = await walk(answer, undefined, 5);
			expect(asked).toHaveLength(12);
			expect(ids).toEqual(records(1, 333).map((r) => r.id));
		});

		it('reads one page at a time when the service sends no total', async () => {
			const { answer, seen } = slow(listService(() => records(1, 250), 100, false));
			const { calls, ids } = await walk(answer, undefined, 6);
			expect(ids).toEqual(records(1, 250).map((r) => r.id));
			expect(calls).toHaveLength(3);
			expect(seen.mostOpen).toBe(1);
		});

		it('follows a total that grows during the walk', async () => {
			const { answer } = slow(listChangingAt(3, 450, 720));
			const { ids } = await walk(answer, undefined, 3);
			expect(ids).toEqual(records(1, 720).map((r) => r.id));
		});

		it('stops at the first empty page when the list shrinks, without yielding anything twice', async () => {
			const { answer } = slow(listChangingAt(2, 900, 420));
			const { ids } = await walk(answer, undefined, 4);
			expect(new Set(ids).size).toBe(ids.length);
			expect(ids).toEqual(records(1, 420).map((r) => r.id));
		});

		it('reports the error of a page it reads', async () => {
			const service = listService(() => records(1, 1000));
			const failing = (options: IHttpRequestOptions, call: number) =>
				(options.qs as { page: number }).page === 3 ? json(403, { message: 'no access' }) : service(options, call);
			await expect(walk(slow(failing).answer, undefined, 4)).rejects.toThrow(/403|access/i);
		});
	});

	it('refuses an answer that is not a list', async () => {
		await expect(walk(() => json(200, { success: true, data: { id: 1 } }))).rejects.toThrow(/not a list/);
	});
});
