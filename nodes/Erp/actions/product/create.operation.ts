import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createdItem, createKeyed } from '../shared/keyed';
import { productFields } from './fields';
import { productBySku } from './lookup';

const TOOL_TEXT =
	'Create a new product. Arguments: sku (its unique code, required), name (required), description, ' +
	'unit_price (a number), unit (e.g. pcs or hour), low_stock_threshold (a whole number), active (true or ' +
	'false). Returns the new product with its id (a whole number). When the product may already exist, prefer' +
	' the create-or-update tool: it matches by sku.';

export const description = forOperation('product', 'create', columnsDescription('getProductFields', 'product'), TOOL_TEXT);

/** POST /products; a create whose answer was lost is settled by looking the SKU up (GET /products?sku=…). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const doing = { action: 'create the product', noun: 'product' };
	const created = await createKeyed(client, productBySku, body, itemIndex, async (resolveUnclear) =>
		await client.request({ method: 'POST', path: '/products', body, itemIndex, resolveUnclear, doing }),
	);
	return [createdItem(created)];
}
