import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { ErpResponse, UnclearResolution } from '../../transport/types';
import { columnsDescription, mappedBody } from '../shared/columns';
import type { KeyedResource } from '../shared/keyed';
import { createKeyed } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { productFields } from './fields';
import { listPath } from './getAll.operation';

export const description = forOperation('product', 'create', columnsDescription('getProductFields', 'product'));

/** POST /products */
async function createProduct(
	client: ErpClient,
	body: IDataObject,
	itemIndex: number,
	resolveUnclear?: () => Promise<UnclearResolution>,
): Promise<ErpResponse> {
	return await client.request({ method: 'POST', path: '/products', body, itemIndex, resolveUnclear });
}

/** Products are found by SKU: for Create or Update, and to settle a create whose answer was lost. */
export const keyedProducts: KeyedResource = { noun: 'product', key: 'sku', listPath, create: createProduct };

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const { record, recovered } = await createKeyed(client, keyedProducts, body, itemIndex);
	return [recovered ? { ...record, recovered } : record];
}
