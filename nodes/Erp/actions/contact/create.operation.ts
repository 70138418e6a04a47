import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import type { KeyedResource } from '../shared/keyed';
import { createdItem, createKeyed } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { contactFields } from './fields';
import { getContact } from './get.operation';
import { listPath } from './getAll.operation';

export const description = forOperation('contact', 'create', columnsDescription('getContactFields', 'contact'));

/**
 * POST /contacts: the ERP answers with the new contact's id, first_name and created_at (the document). Contacts
 * are found by e-mail (GET /contacts?email=…): for Create or Update, and to settle a create whose answer was lost.
 */
export const keyedContacts: KeyedResource = { noun: 'contact', key: 'email', listPath, createPath: '/contacts' };

/** The whole contact, read back when Fetch Full Record is on; a failed read keeps the created contact's item. */
export async function withFullRecord(this: IExecuteFunctions, client: ErpClient, created: IDataObject, itemIndex: number): Promise<IDataObject> {
	if (!this.getNodeParameter('options.fetchFullRecord', itemIndex, false) || created.id === undefined) return created;
	try {
		return await getContact(client, Number(created.id), itemIndex);
	} catch (error) {
		// The contact exists now: failing the item would invite a re-run that creates it a second time.
		return { ...created, fullRecordError: `Created, but reading the full contact failed: ${(error as Error).message}` };
	}
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const { record, recovered } = await createKeyed(client, keyedContacts, body, itemIndex);
	return [createdItem({ record: await withFullRecord.call(this, client, record, itemIndex), recovered })];
}
