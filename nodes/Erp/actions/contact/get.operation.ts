import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, requestRecord } from '../shared/operation';

export const description = forOperation('contact', 'get', [recordLocator('contact', 'searchContacts', 'The contact to get')]);

/** GET /contacts/{id} */
export async function getContact(client: ErpClient, id: number, itemIndex: number): Promise<IDataObject> {
	return await requestRecord(client, { method: 'GET', path: `/contacts/${id}`, itemIndex });
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return [await getContact(client, readRecordId.call(this, 'contact', itemIndex), itemIndex)];
}
