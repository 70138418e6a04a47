import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { productFilters } from './fields';

const TOOL_TEXT =
	'Get many products in the ERP. Returns a list of products, each with its ID (a whole number), or an ' +
	'empty list; it may not hold every match.';

export const description = getManyDescription('product', productFilters, TOOL_TEXT);

/** GET /products, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, productFilters, 'product', { path: '/products', doing: { action: 'list products', noun: 'product' } });
}
