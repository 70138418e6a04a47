import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createdItem, createKeyed } from '../shared/keyed';
import { productFields } from './fields';
import { productBySku } from './lookup';

const TOOL_TEXT =
	'Create a product in the ERP. Returns the new product with its ID (a whole number). Calling it twice ' +
	'can create the same product twice.';

export const description = forOperation('product', 'create', columnsDescription('getProductFields', 'product'), TOOL_TEXT);

/** POST /products; a create whose answer was lost is settled by looking the SKU up (GET /products?sku=…). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const doing = { action: 'create the product', noun: 'product' };
	const created = await createKeyed(client, productBySku, body, itemIndex, async () =>
		await client.exchange({ method: 'POST', path: '/products', body, itemIndex, doing }),
	);
	return [createdItem(created)];
}
