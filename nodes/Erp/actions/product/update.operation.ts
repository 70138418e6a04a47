import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fieldsCollection } from '../shared/fields';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, recordOr } from '../shared/operation';
import { ASSIGNED_FIELDS, mergeChanges, readChanges } from '../shared/update';
import { productFields } from './fields';
import { getProduct } from './get.operation';

export const description = forOperation('product', 'update', [
	recordLocator('product', 'searchProducts', 'The product to update'),
	fieldsCollection(productFields, { name: 'updateFields', displayName: 'Update Fields' }),
]);

// The stock total is computed from the warehouses: not a field an update sends.
const NOT_SENT = [...ASSIGNED_FIELDS, 'stock_total'];

/** PUT /products/{id} with the whole product as read just before, changed: no field the user left alone is lost. */
export async function updateProduct(client: ErpClient, id: IDataObject[string], changes: IDataObject, itemIndex: number): Promise<IDataObject> {
	const body = mergeChanges(await getProduct(client, Number(id), itemIndex), changes, NOT_SENT);
	const { data } = await client.request({ method: 'PUT', path: `/products/${String(id)}`, body, itemIndex });
	// The document shows no answer to an update: without the record, what was sent is what the ERP now holds.
	return recordOr(data, { id, ...body });
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	return [await updateProduct(client, id, readChanges.call(this, itemIndex, productFields, 'product'), itemIndex)];
}
