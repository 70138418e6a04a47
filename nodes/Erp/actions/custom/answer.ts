import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpResponse } from '../../../shared/transport/types';
import { isObject } from '../../../shared/transport/types';

/** A list's element as an item's JSON: a record as it is, anything else under `data`. */
export const asRecord = (value: unknown): IDataObject => (isObject(value) ? value : { data: value as IDataObject[string] });

/** A list's records as items, or all in one item when Options › Return As One Item says so. */
export function listOutput(this: IExecuteFunctions, itemIndex: number, records: IDataObject[]): IDataObject[] {
	const asOneItem = this.getNodeParameter('options.returnAsOneItem', itemIndex, false) as boolean;
	return asOneItem ? [{ records, count: records.length }] : records;
}

/** An answer's data as items: a list's records, a record as one item, an empty answer as `{success: true}`. */
export function answerItems(this: IExecuteFunctions, itemIndex: number, data: unknown): IDataObject[] {
	if (data === undefined || data === null || data === '') return [{ success: true }];
	if (Array.isArray(data)) return listOutput.call(this, itemIndex, data.map(asRecord));
	return [asRecord(data)];
}

/** Options › Full Response: the answer as one item, its status, data and paging meta (in the API document's names). */
export function fullResponse({ statusCode, data, meta }: ErpResponse): IDataObject {
	const paging = meta && Object.fromEntries(Object.entries({ page: meta.page, per_page: meta.perPage, total: meta.total }).filter(([, n]) => n !== undefined));
	return { statusCode, data: (data ?? null) as IDataObject[string], ...(paging ? { meta: paging } : {}) };
}

export const wantsFullResponse = (ctx: IExecuteFunctions, itemIndex: number) => ctx.getNodeParameter('options.fullResponse', itemIndex, false) as boolean;
