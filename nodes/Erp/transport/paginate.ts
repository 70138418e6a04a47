import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ErpClient } from './client';
import type { ErpResponse, Query } from './types';

/** The largest page the API document's service is assumed to serve (docs/api-assumptions.md). */
export const MAX_PAGE_SIZE = 100;
// A guard against a service that ignores `page` and keeps answering: no real list is this long.
const MAX_PAGES = 100_000;

export interface PageRequest {
	path: string;
	query?: Query;
	/** Stop after this many records; undefined = all of them. */
	limit?: number;
	itemIndex: number;
}

function recordsOf(data: unknown, client: ErpClient, request: PageRequest): IDataObject[] {
	if (data === undefined || data === null) return [];
	if (Array.isArray(data)) return data as IDataObject[];
	throw new NodeApiError(
		client.node,
		{ message: `Expected a list from ${request.path}` },
		{
			message: `The ERP answered ${request.path} with something that is not a list`,
			description: 'Check that the Base URL points at the ERP API (it must end with /api/v1).',
			itemIndex: request.itemIndex,
		},
	);
}

/**
 * Yields the records of a list endpoint page by page, in order, holding only the pages at hand.
 * The page size is what the service says it used (`meta.per_page`), not what was asked: a service may cap it.
 * Stops at `meta.total` (re-read on every page, so a list that grows or shrinks meanwhile is followed),
 * at the first empty page, or when a page brings nothing new and no total says there is more. Records already
 * seen (by id) are not yielded twice, even when inserts shift the pages during the walk.
 *
 * With Concurrency above 1, the pages that `meta.total` (and Limit) say are still needed are asked for up to
 * Concurrency at a time, ahead of the one being yielded; without a total, one page at a time.
 */
export async function* paginate(client: ErpClient, request: PageRequest): AsyncGenerator<IDataObject[]> {
	const asked = request.limit === undefined ? MAX_PAGE_SIZE : Math.min(request.limit, MAX_PAGE_SIZE);
	const seen = new Set<unknown>();
	let remaining = request.limit ?? Number.POSITIVE_INFINITY;
	const ahead: Array<Promise<ErpResponse>> = [];
	let nextToAsk = 1;
	let lastNeeded = 1;
	const ask = (page: number) => {
		const response = client.request({
			method: 'GET',
			path: request.path,
			qs: { ...request.query, page, per_page: asked },
			itemIndex: request.itemIndex,
		});
		// A page asked ahead may fail after the walk has stopped: only a page that is read reports its error.
		response.catch(() => undefined);
		return response;
	};

	for (let page = 1; page <= lastNeeded; page++) {
		while (nextToAsk <= lastNeeded && ahead.length < client.options.concurrency) ahead.push(ask(nextToAsk++));
		const response = await (ahead.shift() as Promise<ErpResponse>);
		const records = recordsOf(response.data, client, request);
		const fresh = records.filter((record) => {
			if (record.id === undefined) return true;
			if (seen.has(record.id)) return false;
			seen.add(record.id);
			return true;
		});
		const kept = fresh.length > remaining ? fresh.slice(0, remaining) : fresh;
		if (kept.length) yield kept;
		remaining -= kept.length;

		const total = response.meta?.total;
		const perPage = response.meta?.perPage || records.length;
		if (remaining <= 0 || records.length === 0) return;
		if (total !== undefined && page * perPage >= total) return;
		if (!response.meta && records.length < asked) return;
		// A page of records already seen: a page's worth was inserted ahead of it (go on while the total says
		// there is more), or the service ignores `page` (no total, or it answered another page than asked).
		if (fresh.length === 0 && (total === undefined || (response.meta?.page !== undefined && response.meta.page !== page))) return;
		lastNeeded = Math.min(
			MAX_PAGES,
			total === undefined ? page + 1 : Math.ceil(total / perPage),
			page + Math.ceil(remaining / perPage),
		);
	}
}
