import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ErpClient } from '../../../../nodes/shared/transport/client';
import { paginate } from '../../../../nodes/shared/transport/paginate';
import type { RawResponse, TransportOptions } from '../../../../nodes/shared/transport/types';
import { fakeContext, fakeTime, json } from '../fakes';

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

type Responder = (options: IHttpRequestOptions, call: number) => RawResponse | Promise<RawResponse>;

async function clientFor(responder: Responder, options: Partial<TransportOptions> = {}) {
	const { ctx, calls } = fakeContext(responder);
	fakeTime('auto');
	const client = await ErpClient.create(ctx, options);
	return { client, calls, asked: () => calls.map((c) => c.qs as { page: number; per_page: number }) };
}

/** Walks the list to its end (or to the error it ends in), collecting what was yielded. */
async function walkWith(client: ErpClient, limit?: number) {
	const pages: IDataObject[][] = [];
	let error: unknown;
	try {
		for await (const page of paginate(client, { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, limit, itemIndex: 0 })) pages.push(page);
	} catch (e) {
		error = e;
	}
	return { pages, ids: pages.flat().map((r) => r.id), error };
}

async function walk(responder: Responder, limit?: number, concurrency = 1) {
	const { client, calls, asked } = await clientFor(responder, { concurrency });
	const { pages, ids, error } = await walkWith(client, limit);
	if (error) throw error;
	return { calls, pages, ids, asked: asked() };
}

async function failedWalk(responder: Responder, concurrency = 1) {
	const { client, calls } = await clientFor(responder, { concurrency });
	const { ids, error } = await walkWith(client);
	expect(error).toBeInstanceOf(NodeApiError);
	return { calls, ids, error: error as NodeApiError };
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

	it('stops at a page shorter than meta.per_page when there is no total, and walks on when meta names no size', async () => {
		const noTotal = (perPage?: number) => (options: IHttpRequestOptions) => {
			const { page } = options.qs as { page: number };
			const data = records(1, 130).slice((page - 1) * 50, page * 50);
			return json(200, { success: true, data, meta: perPage ? { page, per_page: perPage } : { page } });
		};
		const sized = await walk(noTotal(50));
		expect(sized.ids).toEqual(records(1, 130).map((r) => r.id));
		expect(sized.calls).toHaveLength(3);
		// Its own default of 50 with no per_page in meta: 50 records are no sign of the end.
		const unsized = await walk(noTotal());
		expect(unsized.ids).toEqual(records(1, 130).map((r) => r.id));
		expect(unsized.calls).toHaveLength(4);
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

	describe('a service that ignores page while its total says there are more', () => {
		const ignoringPage = (meta: (page: number) => IDataObject) => (options: IHttpRequestOptions) =>
			json(200, { success: true, data: records(1, 100), meta: meta((options.qs as { page: number }).page) });

		it('fails clearly when it answers another page than asked, after yielding the first page once', async () => {
			const { calls, ids, error } = await failedWalk(ignoringPage(() => ({ page: 1, per_page: 100, total: 5000 })));
			expect(calls).toHaveLength(2);
			expect(ids).toEqual(records(1, 100).map((r) => r.id));
			expect(error.message).toBe('The ERP answered page 1 when asked for page 2: it seems to ignore the page parameter, so the list cannot be read in full');
			expect(error.description).toMatch(/^100 of the 5000 contacts the ERP reports were read\. Set Limit to at most 100/);
			// No wait makes the ERP page its lists: the node is configured against a service it cannot read in full.
			expect(error.failure).toEqual({ cause: 'configuration-invalid' });
		});

		it('fails clearly when it echoes the page asked but repeats the records, or sends no page number', async () => {
			for (const meta of [(page: number) => ({ page, per_page: 100, total: 5000 }), () => ({ total: 5000 })]) {
				const { calls, ids, error } = await failedWalk(ignoringPage(meta));
				// One page of repeats may be inserts ahead of it; a second one is not.
				expect(calls).toHaveLength(3);
				expect(ids).toHaveLength(100);
				expect(error.message).toMatch(/sent contacts already read when asked for page 3: it seems to ignore the page parameter/);
			}
		});

		it('fails clearly when the total is less than two pages', async () => {
			const { calls, ids, error } = await failedWalk(ignoringPage((page) => ({ page, per_page: 100, total: 120 })));
			expect(calls).toHaveLength(3);
			expect(ids).toHaveLength(100);
			expect(error.description).toMatch(/^100 of the 120 contacts the ERP reports were read/);
		});

		it('fails clearly with Concurrency, without walking on', async () => {
			const { calls, ids, error } = await failedWalk(ignoringPage((page) => ({ page, per_page: 100, total: 5000 })), 4);
			expect(error.message).toMatch(/ignore the page parameter/);
			expect(ids).toHaveLength(100);
			expect(calls.length).toBeLessThanOrEqual(1 + 4 + 1);
		});
	});

	it('stops when a service ignores page and repeats itself', async () => {
		const { calls, ids } = await walk(() => json(200, { data: records(1, 100) }));
		expect(calls).toHaveLength(2);
		expect(ids).toHaveLength(100);
	});

	describe('page size', () => {
		it('asks for Page Size, or for Limit when it is smaller', async () => {
			const sized = await clientFor(listService(() => records(1, 90)), { pageSize: 40 });
			expect((await walkWith(sized.client)).ids).toEqual(records(1, 90).map((r) => r.id));
			expect(sized.asked().map((q) => q.per_page)).toEqual([40, 40, 40]);
			const limited = await clientFor(listService(() => records(1, 90)), { pageSize: 40 });
			expect((await walkWith(limited.client, 15)).ids).toHaveLength(15);
			expect(limited.asked()).toEqual([{ page: 1, per_page: 15 }]);
		});

		it('follows a service that ignores per_page and serves its own default', async () => {
			const ownDefault = (options: IHttpRequestOptions) => listService(() => records(1, 60), 100)({ ...options, qs: { ...(options.qs as object), per_page: 25 } });
			const { ids, calls } = await walk(ownDefault);
			expect(ids).toEqual(records(1, 60).map((r) => r.id));
			expect(calls).toHaveLength(3);
		});

		/** A service that serves at most `max` per page and refuses a larger per_page with `refusal`. */
		const refusing = (max: number, refusal: RawResponse) => {
			const service = listService(() => records(1, 120));
			return (options: IHttpRequestOptions) => ((options.qs as { per_page: number }).per_page > max ? refusal : service(options));
		};

		it.each([
			['400, our envelope, "must be at most"', 50, json(400, { success: false, error: { code: 'bad_request', message: 'per_page must be at most 50' } }), [100, 50]],
			['422, field messages, "between 1 and"', 50, json(422, { success: false, error: { code: 'validation_failed', message: 'Invalid query', fields: { per_page: ['must be between 1 and 50'] } } }), [100, 50]],
			['422, errors list, "maximum"', 25, json(422, { errors: [{ field: 'per_page', message: 'maximum 25' }] }), [100, 25]],
			['400, plain text, "(max N)"', 40, json(400, 'Bad Request: per_page too large (max 40)'), [100, 40]],
			['400, {error: "…"}, "less than"', 50, json(400, { error: 'per_page must be less than 51' }), [100, 50]],
			['400, {message} naming no size: halved', 30, json(400, { message: 'The per_page parameter is out of range' }), [100, 50, 25]],
			['422, {detail} in camel case naming no size: halved', 30, json(422, { detail: 'perPage exceeds the limit' }), [100, 50, 25]],
		])('learns the size when per_page is refused (%s), and says so in no error', async (_shape, max, refusal, sizes) => {
			const { client, asked } = await clientFor(refusing(max, refusal));
			const { ids, error } = await walkWith(client);
			expect(error).toBeUndefined();
			expect(ids).toEqual(records(1, 120).map((r) => r.id));
			const firstPages = asked().filter((q) => q.page === 1).map((q) => q.per_page);
			expect(firstPages).toEqual(sizes);
			expect(new Set(asked().filter((q) => q.page > 1).map((q) => q.per_page))).toEqual(new Set([sizes[sizes.length - 1]]));
		});

		it('remembers the learnt size for the rest of the node run', async () => {
			const refusal = json(400, { success: false, error: { code: 'bad_request', message: 'per_page must be at most 50' } });
			const { client, asked } = await clientFor(refusing(50, refusal), { pageSize: 80 });
			await walkWith(client);
			const secondFrom = asked().length;
			const second = await walkWith(client, 70);
			expect(second.ids).toHaveLength(70);
			expect(asked().slice(secondFrom)).toEqual([
				{ page: 1, per_page: 50 },
				{ page: 2, per_page: 50 },
			]);
		});

		it('shows a 400 that is not about per_page, and one that refuses even a page of 1', async () => {
			const other = await clientFor(() => json(400, { success: false, error: { code: 'bad_request', message: 'Unknown sort field' } }));
			expect((await walkWith(other.client)).error).toBeInstanceOf(NodeApiError);
			expect(other.asked()).toHaveLength(1);
			const always = await clientFor(() => json(422, { errors: { per_page: ['is not supported'] } }));
			const { error } = await walkWith(always.client);
			expect((error as NodeApiError).message).toBe('The ERP refused to list contacts (422): per_page: is not supported');
			expect(always.asked().map((q) => q.per_page)).toEqual([100, 50, 25, 12, 6, 3, 1]);
		});
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
			const failing = (options: IHttpRequestOptions) =>
				(options.qs as { page: number }).page === 3 ? json(403, { message: 'no access' }) : service(options);
			await expect(walk(slow(failing).answer, undefined, 4)).rejects.toThrow(/403|access/i);
		});
	});

	it('refuses an answer that is not a list', async () => {
		await expect(walk(() => json(200, { success: true, data: { id: 1 } }))).rejects.toThrow(/not a list/);
	});
});
