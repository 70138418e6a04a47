import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import type { KeyedResource } from '../shared/keyed';
import { createdItem, createKeyed } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { productFields } from './fields';
import { listPath } from './getAll.operation';

export const description = forOperation('product', 'create', columnsDescription('getProductFields', 'product'));

/** POST /products. Products are found by SKU (GET /products?sku=…): for Create or Update, and to settle a create whose answer was lost. */
export const keyedProducts: KeyedResource = { noun: 'product', key: 'sku', listPath, createPath: '/products' };

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	return [createdItem(await createKeyed(client, keyedProducts, body, itemIndex))];
}
