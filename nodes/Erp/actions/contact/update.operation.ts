import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fieldsCollection } from '../shared/fields';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, recordOr } from '../shared/operation';
import { ASSIGNED_FIELDS, mergeChanges, readChanges } from '../shared/update';
import { contactFields } from './fields';
import { getContact } from './get.operation';

export const description = forOperation('contact', 'update', [
	recordLocator('contact', 'searchContacts', 'The contact to update'),
	fieldsCollection(contactFields, { name: 'updateFields', displayName: 'Update Fields' }),
]);

/** PUT /contacts/{id} with the whole contact as read just before, changed: no field the user left alone is lost. */
export async function updateContact(client: ErpClient, id: IDataObject[string], changes: IDataObject, itemIndex: number): Promise<IDataObject> {
	const current = await getContact(client, Number(id), itemIndex);
	const body = mergeChanges(current, changes, ASSIGNED_FIELDS);
	const { data } = await client.request({ method: 'PUT', path: `/contacts/${String(id)}`, body, itemIndex });
	// The document shows no answer to an update: without the record, what was sent is what the ERP now holds.
	return recordOr(data, { id, ...body });
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	return [await updateContact(client, id, readChanges.call(this, itemIndex, contactFields, 'contact'), itemIndex)];
}
