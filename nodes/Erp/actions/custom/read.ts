import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import type { Doing, ErpResponse, Query } from '../../../shared/transport/types';
import { listItems, readLimit } from '../shared/listing';
import { answerItems, asRecord, fullResponse, listOutput, wantsFullResponse } from './answer';

/** Whether a list's first answer holds the whole list, as its `meta` tells (no meta: nothing says there is more). */
function isWhole(meta: ErpResponse['meta'], count: number): boolean {
	if (!meta) return true;
	if (meta.total !== undefined) return count >= meta.total;
	return meta.perPage !== undefined && count < meta.perPage;
}

/**
 * A GET: sent as the user gave it, since the path may name a record or a list. A list the answer shows to be longer
 * (its `meta`) is then read page by page from the start by the node's own paging, as Get Many reads one, up to
 * Return All or Limit. Query Parameters that name `page` or `per_page` read that page alone; so does Full Response.
 */
export async function readAnswer(
	this: IExecuteFunctions,
	client: ErpClient,
	request: { path: string; query: Query; doing: Doing },
	itemIndex: number,
): Promise<IDataObject[]> {
	const { path, query, doing } = request;
	const full = wantsFullResponse(this, itemIndex);
	const first = await client.request({ method: 'GET', path, qs: query, itemIndex, expect: 'any', doing });
	if (full) return [fullResponse(first)];
	if (!Array.isArray(first.data)) return answerItems.call(this, itemIndex, first.data);
	const limit = readLimit.call(this, itemIndex);
	const records = first.data as unknown[];
	const onePage = 'page' in query || 'per_page' in query;
	if (onePage || isWhole(first.meta, records.length) || (limit !== undefined && records.length >= limit)) {
		return listOutput.call(this, itemIndex, records.slice(0, limit).map(asRecord));
	}
	return await listItems.call(this, client, { path, query, limit, itemIndex, doing }, (read) => read.map(asRecord));
}
