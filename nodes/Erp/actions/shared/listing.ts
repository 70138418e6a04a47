import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { PageRequest } from '../../transport/paginate';
import { paginate } from '../../transport/paginate';
import type { Query } from '../../transport/types';
import type { FieldSpecs } from './fields';
import { sortedOptions } from './fields';
import { locatorValue } from './locator';
import { checkValue, isBlank } from './values';

/** n8n's Return All / Limit pair. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

const queryParametersOption: INodeProperties = {
	displayName: 'Query Parameters',
	name: 'queryParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Parameter',
	description: 'Other filters the ERP understands, sent as they are, e.g. sort = -created_at',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. sort' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. -created_at' },
			],
		},
	],
};

/** A Get Many operation's parameters: Return All / Limit and the Filters collection (own filters + free-form). */
export function getManyDescription(resource: string, filters: FieldSpecs): INodeProperties[] {
	const [returnAll, limit] = returnAllAndLimit;
	return updateDisplayOptions({ show: { resource: [resource], operation: ['getAll'] } }, [
		{ ...returnAll, hint: "For very large lists, see Speed in the package's README: time and memory per record, and n8n's limit" },
		limit,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: sortedOptions([...Object.values(filters).map((spec) => spec.property), queryParametersOption]),
		},
	]);
}

// Paging is driven by Return All / Limit (and the Page Size option); a free-form page or per_page would fight it.
const RESERVED = new Set(['page', 'per_page']);

export function readQuery(this: IExecuteFunctions, itemIndex: number, specs: FieldSpecs): Query {
	const { queryParameters, ...filters } = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const query: Query = {};
	for (const [name, raw] of Object.entries(filters)) {
		const spec = specs[name];
		const value = locatorValue(raw);
		if (!spec || isBlank(value)) continue;
		query[spec.apiName] = checkValue.call(this, spec.kind, value, spec.property.displayName, itemIndex) as string | number | boolean;
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
	if (this.getNodeParameter('returnAll', itemIndex, false) as boolean) return undefined;
	const limit = this.getNodeParameter('limit', itemIndex, 50);
	if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
		throw new NodeOperationError(this.getNode(), `Limit must be a whole number of 1 or more, not ${JSON.stringify(limit)}`, {
			itemIndex,
		});
	}
	return limit;
}

/** All records of a list endpoint (or up to `limit`), page by page. */
export async function fetchList(client: ErpClient, request: PageRequest): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	for await (const page of paginate(client, request)) records.push(...page);
	return records;
}

/** One item per record, or one item holding them all when the user asked for that. */
export function listOutput(this: IExecuteFunctions, itemIndex: number, records: IDataObject[]): IDataObject[] {
	const asOneItem = this.getNodeParameter('options.returnAsOneItem', itemIndex, false) as boolean;
	return asOneItem ? [{ records, count: records.length }] : records;
}

/** Get Many: the list request with the filters and Return All / Limit, and the output the user chose. */
export async function getMany(
	this: IExecuteFunctions,
	client: ErpClient,
	itemIndex: number,
	filters: FieldSpecs,
	list: Pick<PageRequest, 'path' | 'doing'>,
): Promise<IDataObject[]> {
	const query = readQuery.call(this, itemIndex, filters);
	const limit = readLimit.call(this, itemIndex);
	return listOutput.call(this, itemIndex, await fetchList(client, { ...list, query, limit, itemIndex }));
}
