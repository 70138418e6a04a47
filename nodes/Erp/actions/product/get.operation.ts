import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { outputProperties, shapeRecords } from '../shared/output';

const TOOL_TEXT =
	'Get one product by its ID (a whole number; find it with the product search tool). Returns the product: ' +
	'id, sku, name, unit_price, currency, unit, stock_total (units in stock over all warehouses), ' +
	'low_stock_threshold, active and description.';

export const description = forOperation('product', 'get', [recordLocator('product', 'searchProducts', 'The product to get'), ...outputProperties], TOOL_TEXT);

/** GET /products/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const doing = { action: `read product ${id}`, noun: 'product', id };
	const { data } = await client.request({ method: 'GET', path: `/products/${id}`, expect: 'record', itemIndex, doing });
	return shapeRecords.call(this, 'product', itemIndex, [data as IDataObject]);
}
