import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import type { PageRequest } from '../../../shared/transport/paginate';
import { paginate } from '../../../shared/transport/paginate';
import type { Query } from '../../../shared/transport/types';
import type { RecordNoun } from '../../../shared/records';
import type { FieldSpecs } from './fields';
import { locatorValue } from './locator';
import { shapeRecords } from './output';
import { argumentLabel, isToolNode, TOOL_LIMIT } from './tool';
import { checkValue, isBlank } from '../../../shared/values';

// Paging is driven by Return All / Limit (and the Page Size option); a free-form page or per_page would fight it.
const RESERVED = new Set(['page', 'per_page']);

export function readQuery(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs): Query {
	const { queryParameters, ...filters } = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: Query = {};
	for (const [name, raw] of Object.entries(filters)) {
		const spec = specs[name];
		const value = locatorValue(raw);
		if (!spec || isBlank(value)) continue;
		const label = argumentLabel(this.getNode(), `filters.${name}`, spec.property.displayName);
		query[spec.apiName] = checkValue.call(this, spec.kind, value, label, itemIndex) as string | number | boolean;
	}
	const extra = (queryParameters as { parameter?: Array<{ name?: string; value?: string }> } | undefined)?.parameter ?? [];
	for (const { name = '', value = '' } of extra) {
		const key = name.trim();
		if (key === '') continue;
		if (RESERVED.has(key)) {
			throw new NodeOperationError(this.getNode(), `Query Parameters may not set "${key}": paging follows Return All and Limit`, {
				itemIndex,
				description: `Remove "${key}" from Query Parameters; use Return All or Limit, and Options › Page Size for the ERP's page size.`,
			});
		}
		query[key] = value;
	}
	return query;
}

export function readLimit(this: IExecuteFunctions, itemIndex: number): number | undefined {
	const inTool = isToolNode(this.getNode());
	if (!inTool && (this.getNodeParameter('returnAll', itemIndex, false) as boolean)) return undefined;
	const name = inTool ? 'toolLimit' : 'limit';
	const limit = this.getNodeParameter(name, itemIndex, inTool ? TOOL_LIMIT : 50);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(this.getNode(), `${argumentLabel(this.getNode(), name, 'Limit')} must be a whole number of 1 or more, not ${JSON.stringify(limit)}`, {
			itemIndex,
		});
	}
	return limit;
}

/**
 * All records of a list endpoint (or up to its limit), shaped as `shape` says: one item per record, or one holding
 * them all if the user asks.
 */
export async function listItems(
	this: IExecuteFunctions,
	client: ErpClient,
	request: PageRequest,
	shape: (records: IDataObject[]) => IDataObject[] = (records) => records,
): Promise<IDataObject[]> {
	const read: IDataObject[] = [];
	for await (const page of paginate(client, request)) read.push(...page);
	const records = shape(read);
	const asOneItem = this.getNodeParameter('options.returnAsOneItem', request.itemIndex, false) as boolean;
	return asOneItem ? [{ records, count: records.length }] : records;
}

/** Get Many: the list request with the filters and Return All / Limit, its records shaped as Simplify or Output says. */
export async function getMany(
	this: IExecuteFunctions,
	client: ErpClient,
	itemIndex: number,
	filters: FieldSpecs,
	noun: RecordNoun,
	list: Pick<PageRequest, 'path' | 'doing'>,
): Promise<IDataObject[]> {
	const query = readQuery.call(this, itemIndex, filters);
	const shape = (records: IDataObject[]) => shapeRecords.call(this, noun, itemIndex, records);
	return await listItems.call(this, client, { ...list, query, limit: readLimit.call(this, itemIndex), itemIndex }, shape);
}
