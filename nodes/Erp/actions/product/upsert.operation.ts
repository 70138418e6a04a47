import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { keyedProducts } from './create.operation';
import { productFields } from './fields';
import { updateProduct } from './update.operation';

export const description = forOperation('product', 'upsert', columnsDescription('getProductFields', 'product'));

/** GET /products?sku=…, then PUT /products/{id} for the one found (as Update does) or POST /products. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, productFields, 'product');
	const sku = requireKey.call(this, keyedProducts, body, itemIndex);
	const outcome = await createUnlessFound(this.getNode(), client, keyedProducts, body, sku, itemIndex, async (found) => ({
		action: 'updated',
		record: await updateProduct(client, found.id, body, itemIndex),
	}));
	return [outcomeJson(outcome)];
}
