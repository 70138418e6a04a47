import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fieldsCollection } from '../shared/fields';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, recordOr } from '../shared/operation';
import { ASSIGNED_FIELDS, mergeChanges, readChanges } from '../shared/update';
import { contactFields } from './fields';

export const description = forOperation('contact', 'update', [
	recordLocator('contact', 'searchContacts', 'The contact to update'),
	fieldsCollection(contactFields, { name: 'updateFields', displayName: 'Update Fields' }),
]);

/** GET /contacts/{id}, then PUT /contacts/{id} with the whole contact, changed: no field the user left alone is lost. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const changes = readChanges.call(this, itemIndex, contactFields, 'contact');
	const read = { action: `read contact ${id}`, noun: 'contact', id };
	const current = await client.request({ method: 'GET', path: `/contacts/${id}`, expect: 'record', itemIndex, doing: read });
	const body = mergeChanges(current.data as IDataObject, changes, ASSIGNED_FIELDS);
	const { data } = await client.request({ method: 'PUT', path: `/contacts/${id}`, body, itemIndex, doing: { ...read, action: `update contact ${id}` } });
	return [recordOr(data, { id, ...body })];
}
