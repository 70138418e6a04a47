import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { paginate } from '../../../../nodes/shared/transport/paginate';
import type { RawResponse } from '../../../../nodes/shared/transport/types';
import { json } from '../fakes';
import type { Responder } from '../fakes';
import { clientFor } from './clientFor';

const records = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => ({ id: from + i }));
const ids = (from: number, to: number) => records(from, to).map((r) => r.id);
const qsOf = (options: IHttpRequestOptions) => options.qs as { page: number; per_page: number };

/** A list service over `store()` that caps per_page at `cap` and reports meta honestly (or none). */
function listService(store: () => IDataObject[], cap = 100, withMeta = true) {
	return (options: IHttpRequestOptions) => {
		const { page, per_page } = qsOf(options);
		const perPage = Math.min(per_page, cap);
		const all = store();
		const data = all.slice((page - 1) * perPage, page * perPage);
		return json(200, withMeta ? { success: true, data, meta: { page, per_page: perPage, total: all.length } } : { success: true, data });
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

/** Each answer takes a few event-loop turns; `seen.mostOpen`: the most requests open at once. */
function slow(responder: Responder) {
	const seen = { open: 0, mostOpen: 0 };
	const answer = async (options: IHttpRequestOptions, call: number) => {
		seen.mostOpen = Math.max(seen.mostOpen, ++seen.open);
		for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
		seen.open--;
		return await responder(options, call);
	};
	return { answer, seen };
}

/** Walks the list to its end (or the error it ends in) with a client of its own, or with `client` (a run going on). */
async function walk(responder: Responder, { limit, concurrency = 1, pageSize, client }: { limit?: number; concurrency?: number; pageSize?: number; client?: Awaited<ReturnType<typeof clientFor>> } = {}) {
	const run = client ?? (await clientFor(responder, { concurrency, pageSize }));
	const before = run.calls.length;
	const pages: IDataObject[][] = [];
	let error: unknown;
	try {
		for await (const page of paginate(run.client, { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' }, limit, itemIndex: 0 })) pages.push(page);
	} catch (e) {
		error = e;
	}
	const asked = run.calls.slice(before).map(qsOf);
	return { run, error, asked, pages: asked.map((q) => q.page), sizes: asked.map((q) => q.per_page), ids: pages.flat().map((r) => r.id) };
}

describe('paginate', () => {
	it.each<[string, Responder, number | undefined, number[], unknown[]]>([
		['an empty list: one request', listService(() => []), undefined, [1], []],
		['a total that is a multiple of the page: no empty page asked', listService(() => records(1, 200)), undefined, [1, 2], ids(1, 200)],
		['a Limit that fits one page: one request of that size', listService(() => records(1, 500)), 30, [1], ids(1, 30)],
		['a larger Limit: stops as soon as it is reached', listService(() => records(1, 1000)), 250, [1, 2, 3], ids(1, 250)],
		['a total that shrinks below the pages read: stops', listChangingAt(2, 250, 180), undefined, [1, 2], ids(1, 180)],
		['no meta, a short page: one request', listService(() => records(1, 7), 100, false), undefined, [1], ids(1, 7)],
		['no total, repeating itself: stops', () => json(200, { data: records(1, 100) }), undefined, [1, 2], ids(1, 100)],
	])('%s', async (_what, service, limit, pages, expected) => {
		const walked = await walk(service, { limit });
		expect(walked.error).toBeUndefined();
		expect(walked.pages).toEqual(pages);
		expect(walked.ids).toEqual(expected);
	});

	it.each([1, 5])('follows a capped per_page, a growing and a shrinking total, never yielding a record twice (Concurrency %i)', async (concurrency) => {
		const capped = await walk(slow(listService(() => records(1, 333), 30)).answer, { concurrency });
		expect([capped.asked.length, capped.ids]).toEqual([12, ids(1, 333)]);
		expect((await walk(slow(listChangingAt(3, 450, 720)).answer, { concurrency })).ids).toEqual(ids(1, 720));
		expect((await walk(slow(listChangingAt(2, 900, 420)).answer, { concurrency })).ids).toEqual(ids(1, 420));
	});

	it('never yields a record twice when an insert shifts the pages, and goes past a page of repeats inserted ahead of it', async () => {
		let all = records(2, 201);
		const shifted = listService(() => all);
		const once = await walk((options, call) => {
			if (call === 2) all = [{ id: 1 }, ...records(2, 201)];
			return shifted(options);
		});
		expect(once.ids).toEqual(ids(2, 201));
		const original = records(1, 300);
		let newest = original;
		const front = listService(() => newest);
		// Newest first: 100 contacts land at the front after page 1 was read, so page 2 repeats page 1.
		const past = await walk((options, call) => {
			if (call === 2) newest = [...records(1001, 1100), ...original];
			return front(options);
		});
		expect(past.ids).toEqual(ids(1, 300));
	});

	it('without a total, stops at a page shorter than meta.per_page, and walks on when meta names no size', async () => {
		const noTotal = (perPage?: number) => (options: IHttpRequestOptions) => {
			const { page } = qsOf(options);
			return json(200, { success: true, data: records(1, 130).slice((page - 1) * 50, page * 50), meta: perPage ? { page, per_page: perPage } : { page } });
		};
		expect(await walk(noTotal(50))).toMatchObject({ pages: [1, 2, 3], ids: ids(1, 130) });
		// Its own default of 50 with no per_page in meta: 50 records are no sign of the end.
		expect(await walk(noTotal())).toMatchObject({ pages: [1, 2, 3, 4], ids: ids(1, 130) });
	});

	describe('a service that ignores page while its total says there are more', () => {
		const ignoringPage = (meta: (page: number) => IDataObject) => (options: IHttpRequestOptions) => json(200, { success: true, data: records(1, 100), meta: meta(qsOf(options).page) });
		const failed = async (meta: (page: number) => IDataObject, concurrency = 1) => {
			const walked = await walk(ignoringPage(meta), { concurrency });
			expect(walked.error).toBeInstanceOf(NodeApiError);
			expect(walked.ids).toEqual(ids(1, 100));
			return { ...walked, error: walked.error as NodeApiError };
		};

		it('answering another page than asked: fails at the second page, configuration-invalid', async () => {
			const { asked, error } = await failed(() => ({ page: 1, per_page: 100, total: 5000 }));
			expect(asked).toHaveLength(2);
			expect(error.message).toBe('The ERP answered page 1 when asked for page 2: it seems to ignore the page parameter, so the list cannot be read in full');
			expect(error.description).toMatch(/^100 of the 5000 contacts the ERP reports were read\. Set Limit to at most 100/);
			expect(error.failure).toEqual({ cause: 'configuration-invalid' });
		});

		it('echoing the page asked, sending no page number, or a total under two pages: one page of repeats may be inserts, a second is not', async () => {
			for (const meta of [(page: number) => ({ page, per_page: 100, total: 5000 }), () => ({ total: 5000 }), (page: number) => ({ page, per_page: 100, total: 120 })]) {
				const { asked, error } = await failed(meta);
				expect(asked).toHaveLength(3);
				expect(error.message).toMatch(/sent contacts already read when asked for page 3: it seems to ignore the page parameter/);
			}
			expect((await failed((page) => ({ page, per_page: 100, total: 120 }))).error.description).toMatch(/^100 of the 120 contacts the ERP reports were read/);
		});

		it('fails with Concurrency too, without walking on', async () => {
			const { asked, error } = await failed((page) => ({ page, per_page: 100, total: 5000 }), 4);
			expect(error.message).toMatch(/ignore the page parameter/);
			expect(asked.length).toBeLessThanOrEqual(1 + 4 + 1);
		});
	});

	describe('page size', () => {
		it('asks for Page Size, or for Limit when it is smaller; follows a service that serves its own default', async () => {
			expect(await walk(listService(() => records(1, 90)), { pageSize: 40 })).toMatchObject({ sizes: [40, 40, 40], ids: ids(1, 90) });
			expect(await walk(listService(() => records(1, 90)), { pageSize: 40, limit: 15 })).toMatchObject({ pages: [1], sizes: [15], ids: ids(1, 15) });
			const ownDefault = (options: IHttpRequestOptions) => listService(() => records(1, 60))({ ...options, qs: { ...qsOf(options), per_page: 25 } });
			expect(await walk(ownDefault)).toMatchObject({ pages: [1, 2, 3], ids: ids(1, 60) });
		});

		/** A service that serves at most `max` per page and refuses a larger per_page with `refusal`. */
		const refusing = (max: number, refusal: RawResponse) => {
			const service = listService(() => records(1, 120));
			return (options: IHttpRequestOptions) => (qsOf(options).per_page > max ? refusal : service(options));
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
			const { error, ids: read, asked } = await walk(refusing(max, refusal));
			expect(error).toBeUndefined();
			expect(read).toEqual(ids(1, 120));
			expect(asked.filter((q) => q.page === 1).map((q) => q.per_page)).toEqual(sizes);
			expect(new Set(asked.filter((q) => q.page > 1).map((q) => q.per_page))).toEqual(new Set([sizes.at(-1)]));
		});

		it('remembers the learnt size for the rest of the node run', async () => {
			const first = await walk(refusing(50, json(400, { success: false, error: { code: 'bad_request', message: 'per_page must be at most 50' } })), { pageSize: 80 });
			expect(await walk(() => json(404, {}), { client: first.run, limit: 70 })).toMatchObject({ pages: [1, 2], sizes: [50, 50], ids: ids(1, 70) });
		});

		it('shows a 400 that is not about per_page, and one that refuses even a page of 1', async () => {
			const other = await walk(() => json(400, { success: false, error: { code: 'bad_request', message: 'Unknown sort field' } }));
			expect([other.error instanceof NodeApiError, other.asked.length]).toEqual([true, 1]);
			const always = await walk(() => json(422, { errors: { per_page: ['is not supported'] } }));
			expect((always.error as NodeApiError).message).toBe('The ERP refused to list contacts (422): per_page: is not supported');
			expect(always.sizes).toEqual([100, 50, 25, 12, 6, 3, 1]);
		});
	});

	describe('with Concurrency above 1', () => {
		it('reads the pages meta.total names ahead, never more at once than Concurrency, and yields them in order', async () => {
			const { answer, seen } = slow(listService(() => records(1, 1000)));
			const walked = await walk(answer, { concurrency: 4 });
			expect(walked.ids).toEqual(ids(1, 1000));
			expect(walked.pages.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
			expect(seen.mostOpen).toBe(4);
		});

		it('asks for the first page alone, then only for pages a Limit still needs; one page at a time without a total', async () => {
			const limited = slow(listService(() => records(1, 1000)));
			expect(await walk(limited.answer, { limit: 250, concurrency: 8 })).toMatchObject({ pages: [1, 2, 3], ids: ids(1, 250) });
			expect(limited.seen.mostOpen).toBe(2);
			const noTotal = slow(listService(() => records(1, 250), 100, false));
			expect(await walk(noTotal.answer, { concurrency: 6 })).toMatchObject({ pages: [1, 2, 3], ids: ids(1, 250) });
			expect(noTotal.seen.mostOpen).toBe(1);
		});

		it('reports the error of a page it reads', async () => {
			const service = listService(() => records(1, 1000));
			const failing = (options: IHttpRequestOptions) => (qsOf(options).page === 3 ? json(403, { message: 'no access' }) : service(options));
			expect(((await walk(slow(failing).answer, { concurrency: 4 })).error as Error).message).toMatch(/403/);
		});
	});
});
