import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, outputProperties, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { shapeRecords } from '../shared/output';

const TOOL_TEXT =
	'Get a product in the ERP by its ID. Returns the product.';

export const description = forOperation('product', 'get', [recordLocator('product', 'searchProducts', 'The product to get'), ...outputProperties], TOOL_TEXT);

/** GET /products/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const doing = { action: `read product ${id}`, noun: 'product', id };
	const { data } = await client.request({ method: 'GET', path: `/products/${id}`, expect: 'record', itemIndex, doing });
	return shapeRecords.call(this, 'product', itemIndex, [data as IDataObject]);
}
