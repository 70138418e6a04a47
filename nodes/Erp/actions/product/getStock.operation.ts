import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fetchList, listOutput } from '../shared/listing';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation } from '../shared/operation';

// One row per warehouse: a single page in practice, so no Limit.
export const description = forOperation('product', 'getStock', [
	recordLocator('product', 'searchProducts', 'The product whose stock to get'),
]);

/** GET /products/{id}/stock, page by page: one item per warehouse. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const doing = { action: `read the stock of product ${id}`, noun: 'product', id };
	return listOutput.call(this, itemIndex, await fetchList(client, { path: `/products/${id}/stock`, itemIndex, doing }));
}
