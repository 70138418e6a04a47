import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { putWhole, readChanges } from '../shared/update';
import { NOT_SENT, productFields } from './fields';

const TOOL_TEXT =
	'Update a product in the ERP by its ID; what is not given keeps its value. Returns the product with ' +
	'the changes.';

export const description = forOperation('product', 'update', [
	recordLocator('product', 'searchProducts', 'The product to update'),
	fieldsCollection(productFields, { name: 'updateFields', displayName: 'Update Fields' }),
], TOOL_TEXT);

/** GET /products/{id}, then PUT /products/{id} with the whole product, changed: no field the user left alone is lost. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const changes = readChanges.call(this, itemIndex, productFields, 'product');
	const read = { method: 'GET', path: `/products/${id}`, itemIndex, doing: { action: `read product ${id}`, noun: 'product', id } } as const;
	const write = { method: 'PUT', path: `/products/${id}`, itemIndex, doing: { action: `update product ${id}`, noun: 'product', id } } as const;
	return [await putWhole(client, { read, write }, changes, NOT_SENT)];
}
