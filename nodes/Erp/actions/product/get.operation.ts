import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

export const description = forOperation('product', 'get', [recordLocator('product', 'searchProducts', 'The product to get')]);

/** GET /products/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const doing = { action: `read product ${id}`, noun: 'product', id };
	return [(await client.request({ method: 'GET', path: `/products/${id}`, expect: 'record', itemIndex, doing })).data as IDataObject];
}
