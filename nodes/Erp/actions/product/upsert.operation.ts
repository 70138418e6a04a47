import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { forOperation, recordOr } from '../shared/operation';
import { mergeChanges } from '../shared/update';
import { NOT_SENT, productFields } from './fields';
import { productBySku } from './lookup';

export const description = forOperation('product', 'upsert', columnsDescription('getProductFields', 'product'));

/**
 * GET /products?sku=…; for the one product found GET /products/{id} and PUT /products/{id} with it whole,
 * changed (as Update does); for none, POST /products.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const sku = requireKey.call(this, productBySku, body, itemIndex);
	const outcome = await createUnlessFound(client, productBySku, sku, itemIndex, {
		create: async (resolveUnclear) =>
			await client.request({ method: 'POST', path: '/products', body, itemIndex, resolveUnclear, doing: { action: 'create the product', noun: 'product' } }),
		whenFound: async ({ id }) => {
			const read = { action: `read product ${String(id)}`, noun: 'product', id: String(id) };
			const current = await client.request({ method: 'GET', path: `/products/${String(id)}`, expect: 'record', itemIndex, doing: read });
			const merged = mergeChanges(current.data as IDataObject, body, NOT_SENT);
			const doing = { ...read, action: `update product ${String(id)}` };
			const { data } = await client.request({ method: 'PUT', path: `/products/${String(id)}`, body: merged, itemIndex, doing });
			return { action: 'updated', record: recordOr(data, { id, ...merged }) };
		},
	});
	return [outcomeJson(outcome)];
}
