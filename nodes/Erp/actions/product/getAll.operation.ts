import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getMany, getManyDescription } from '../shared/listing';
import { productFilters } from './fields';

/** GET /products: also how a product is found by SKU, and the product pick list. */
export const listPath = '/products';

export const description = getManyDescription('product', productFilters);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, listPath, productFilters);
}
