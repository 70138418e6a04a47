import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fieldsCollection } from '../shared/fields';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, recordOr } from '../shared/operation';
import { mergeChanges, readChanges } from '../shared/update';
import { NOT_SENT, productFields } from './fields';

export const description = forOperation('product', 'update', [
	recordLocator('product', 'searchProducts', 'The product to update'),
	fieldsCollection(productFields, { name: 'updateFields', displayName: 'Update Fields' }),
]);

/** GET /products/{id}, then PUT /products/{id} with the whole product, changed: no field the user left alone is lost. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'product', itemIndex);
	const changes = readChanges.call(this, itemIndex, productFields, 'product');
	const read = { action: `read product ${id}`, noun: 'product', id };
	const current = await client.request({ method: 'GET', path: `/products/${id}`, expect: 'record', itemIndex, doing: read });
	const body = mergeChanges(current.data as IDataObject, changes, NOT_SENT);
	const { data } = await client.request({ method: 'PUT', path: `/products/${id}`, body, itemIndex, doing: { ...read, action: `update product ${id}` } });
	return [recordOr(data, { id, ...body })];
}
