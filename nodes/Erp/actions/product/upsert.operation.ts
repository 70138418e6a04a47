import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { putWhole } from '../shared/update';
import { NOT_SENT, productFields } from './fields';
import { productBySku } from './lookup';

const TOOL_TEXT =
	'Create or update a product in the ERP: the product with the same SKU is updated, otherwise a new one ' +
	'is created, so calling it twice never makes a duplicate. Returns the product with its ID (a whole ' +
	'number) and action "created" or "updated".';

export const description = forOperation('product', 'upsert', columnsDescription('getProductFields', 'product'), TOOL_TEXT);

/**
 * GET /products?sku=…; for the one product found GET /products/{id} and PUT /products/{id} with it whole,
 * changed (as Update does); for none, POST /products.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const sku = requireKey.call(this, productBySku, body, itemIndex);
	const outcome = await createUnlessFound(client, productBySku, body, sku, itemIndex, {
		create: async () =>
			await client.exchange({ method: 'POST', path: '/products', body, itemIndex, doing: { action: 'create the product', noun: 'product' } }),
		whenFound: async (found) => {
			const id = found.id as number | string;
			const read = { method: 'GET', path: `/products/${id}`, itemIndex, doing: { action: `read product ${id}`, noun: 'product', id } } as const;
			const write = { method: 'PUT', path: `/products/${id}`, itemIndex, doing: { action: `update product ${id}`, noun: 'product', id } } as const;
			return { action: 'updated', record: await putWhole(client, { read, write }, body, NOT_SENT) };
		},
	});
	return [outcomeJson(outcome)];
}
