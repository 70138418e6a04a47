import type { IDataObject } from 'n8n-workflow';

import { answerOf, type ErpClient } from './client';
import { pageIgnoredError } from './errors';
import type { Doing, ErpRequest, ErpResponse, Query } from './types';

/** The page size asked when the user leaves Page Size blank (the largest docs/api-assumptions.md expects served). */
export const DEFAULT_PAGE_SIZE = 100;
// A guard against a service that ignores `page` and keeps answering new records: no real list is this long.
const MAX_PAGES = 100_000;

/** A list to walk; `limit`: stop after this many records (undefined: all of them). */
export type PageRequest = { path: string; doing: Doing; query?: Query; limit?: number; itemIndex: number };

/** The largest page size the ERP accepted after refusing a larger one in this node run (one client per run), if it did. */
const learntLimits = new WeakMap<ErpClient, number>();
export const learntPageSize = (client: ErpClient): number | undefined => learntLimits.get(client);

/** How an error names the largest page size, and what to add to the number it names. */
const SIZE_PHRASES: Array<[RegExp, number]> = [
	[/between\s+\d+\s+and\s+(\d+)/, 0],
	[/(?:at most|maximum|max|not (?:be )?(?:greater|more|larger|bigger|higher) than|no (?:more|greater|larger|higher) than|not exceed|up to|less than or equal to|<=|≤)\D{0,12}?(\d+)/, 0],
	[/(\d+)\s*(?:or (?:less|fewer)|at most|max(?:imum)?\b)/, 0],
	[/less than\s+(\d+)/, -1],
];

/** The page size to ask after the ERP refused `refusedSize`: the one its error names ("must be at most 50", "between 1
 * and 50"…), else half; undefined when the error, whatever its shape, does not name `per_page`. */
function sizeAfterRefusal(body: unknown, refusedSize: number): number | undefined {
	const text = (typeof body === 'string' ? body : JSON.stringify(body ?? '')).toLowerCase();
	if (!/per_?page/.test(text) || refusedSize <= 1) return undefined;
	for (const [phrase, offset] of SIZE_PHRASES) {
		const named = Number(phrase.exec(text)?.[1]) + offset;
		if (named >= 1 && named < refusedSize) return named;
	}
	return Math.floor(refusedSize / 2);
}

/** Yields a list's records page by page, in order, at the size served (`meta.per_page`, else the count), to `meta.total`
 * (re-read each page), an empty page, or without a total a short page; a record (by id) once; with a total, read ahead. */
export async function* paginate(client: ErpClient, request: PageRequest): AsyncGenerator<IDataObject[]> {
	let size = Math.min(client.options.pageSize ?? DEFAULT_PAGE_SIZE, learntLimits.get(client) ?? Number.POSITIVE_INFINITY, request.limit ?? Number.POSITIVE_INFINITY);
	const { path, doing, itemIndex, query } = request;
	const pageRequest = (page: number): ErpRequest => ({ method: 'GET', path, doing, qs: { ...query, page, per_page: size }, itemIndex, expect: 'list' });
	// Only the first page meets a refused size: the later ones ask the size it was served with.
	const firstPage = async () => {
		let outcome = await client.exchange(pageRequest(1));
		while ('refused' in outcome) {
			const smaller = sizeAfterRefusal(outcome.refused.body, size);
			if (smaller === undefined) throw outcome.refused.error;
			learntLimits.set(client, Math.min(smaller, learntLimits.get(client) ?? smaller));
			size = smaller;
			outcome = await outcome.refused.instead(pageRequest(1));
		}
		return answerOf(outcome);
	};
	const ask = (page: number) => {
		const response = page === 1 ? firstPage() : client.request(pageRequest(page));
		// A page asked ahead may fail after the walk has stopped: only a page that is read reports its error.
		response.catch(() => undefined);
		return response;
	};

	const seen = new Set<unknown>();
	let remaining = request.limit ?? Number.POSITIVE_INFINITY;
	let [yielded, repeats, nextToAsk, lastNeeded] = [0, 0, 1, 1];
	const ahead: Array<Promise<ErpResponse>> = [];
	for (let page = 1; page <= lastNeeded; page++) {
		while (nextToAsk <= lastNeeded && ahead.length < client.options.concurrency) ahead.push(ask(nextToAsk++));
		const response = await (ahead.shift() as Promise<ErpResponse>);
		const records = response.data as IDataObject[];
		const fresh = records.filter((record) => record.id === undefined || (!seen.has(record.id) && seen.add(record.id)));
		const kept = fresh.length > remaining ? fresh.slice(0, remaining) : fresh;
		if (kept.length) yield kept;
		remaining -= kept.length;
		yielded += kept.length;

		const total = response.meta?.total;
		const perPage = response.meta?.perPage || records.length;
		if (remaining <= 0 || records.length === 0) return;
		if (fresh.length > 0) {
			repeats = 0;
			if (total !== undefined && page * perPage >= total) return;
			// Without a total, a page shorter than the size served (meta.per_page; without meta, the size asked) is the last.
			const served = response.meta ? response.meta.perPage : size;
			if (total === undefined && served !== undefined && records.length < served) return;
		} else {
			// Nothing new while the total says there is more: a page's worth may have been inserted ahead (go on, a page past
			// the total's last if need be); one that answers another page, or repeats itself again, ignores `page`.
			if (total === undefined || yielded >= total) return;
			repeats++;
			const answeredPage = response.meta?.page;
			if ((answeredPage !== undefined && answeredPage !== page) || repeats > 1) throw pageIgnoredError(client.node, request, { page, answeredPage, read: yielded, total });
		}
		const lastListed = Math.min(MAX_PAGES, total === undefined ? page + 1 : Math.ceil(total / perPage), page + Math.ceil(remaining / perPage));
		lastNeeded = Math.max(page + (fresh.length === 0 ? 1 : 0), lastListed);
	}
}
