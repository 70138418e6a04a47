import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, requestRecord } from '../shared/operation';

export const description = forOperation('product', 'get', [recordLocator('product', 'searchProducts', 'The product to get')]);

/** GET /products/{id} */
export async function getProduct(client: ErpClient, id: number, itemIndex: number): Promise<IDataObject> {
	return await requestRecord(client, { method: 'GET', path: `/products/${id}`, itemIndex });
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return [await getProduct(client, readRecordId.call(this, 'product', itemIndex), itemIndex)];
}
