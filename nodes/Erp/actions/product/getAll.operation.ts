import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { productFilters } from './fields';

const TOOL_TEXT =
	'Search products. Optional filters: search (text in the name or SKU), sku (the exact product code), ' +
	'active (true or false), low_stock (true: only products whose stock is at or below their low-stock ' +
	'threshold). Returns a list of products with id, sku, name, unit_price, stock_total and ' +
	'low_stock_threshold; an empty list when none match. The list stops at 10 products (unless the tool is ' +
	'set to more): narrow the filters to find a particular one.';

export const description = getManyDescription('product', productFilters, TOOL_TEXT);

/** GET /products, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, productFilters, 'product', { path: '/products', doing: { action: 'list products', noun: 'product' } });
}
