import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { ASSIGNED_FIELDS, putWhole, readChanges } from '../shared/update';
import { contactFields } from './fields';

const TOOL_TEXT =
	'Update a contact in the ERP by its ID; what is not given keeps its value. Returns the contact with ' +
	'the changes.';

export const description = forOperation('contact', 'update', [
	recordLocator('contact', 'searchContacts', 'The contact to update'),
	fieldsCollection(contactFields, { name: 'updateFields', displayName: 'Update Fields' }),
], TOOL_TEXT);

/** GET /contacts/{id}, then PUT /contacts/{id} with the whole contact, changed: no field the user left alone is lost. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const changes = readChanges.call(this, itemIndex, contactFields, 'contact');
	const read = { method: 'GET', path: `/contacts/${id}`, itemIndex, doing: { action: `read contact ${id}`, noun: 'contact', id } } as const;
	const write = { method: 'PUT', path: `/contacts/${id}`, itemIndex, doing: { action: `update contact ${id}`, noun: 'contact', id } } as const;
	return [await putWhole(client, { read, write }, changes, ASSIGNED_FIELDS)];
}
