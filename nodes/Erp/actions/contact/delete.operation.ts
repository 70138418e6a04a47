import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { readRecordId, recordLocator } from '../common/locator';

const properties: INodeProperties[] = [recordLocator('contact', 'searchContacts', 'The contact to delete')];

export const description = updateDisplayOptions({ show: { resource: ['contact'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const response = await client.request({ method: 'DELETE', path: `/contacts/${id}`, itemIndex });
	// A 204 (or a repeated DELETE that found the contact already gone) has no body: say what happened.
	const data = response.data;
	return [typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : { id, deleted: true }];
}
