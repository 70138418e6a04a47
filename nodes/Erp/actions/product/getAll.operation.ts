import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { productFilters } from './fields';

export const description = getManyDescription('product', productFilters);

/** GET /products, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, productFilters, { path: '/products', doing: { action: 'list products', noun: 'product' } });
}
