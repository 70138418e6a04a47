import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { listItems } from '../shared/listing';
import { readRecordId } from '../shared/locator';

// One row per warehouse: a single page in practice, so no Limit.
const TOOL_TEXT =
	'Get the stock of a product in the ERP by the product\'s ID. Returns one entry per warehouse, as the ' +
	'ERP sends it.';

export const description = forOperation('product', 'getStock', [
	recordLocator('product', 'searchProducts', 'The product whose stock to get'),
], TOOL_TEXT);

/** GET /products/{id}/stock, page by page: one item per warehouse. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const doing = { action: `read the stock of product ${id}`, noun: 'product', id };
	return await listItems.call(this, client, { path: `/products/${id}/stock`, itemIndex, doing });
}
