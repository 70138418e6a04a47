import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

export const description = forOperation('contact', 'get', [recordLocator('contact', 'searchContacts', 'The contact to get')]);

/** GET /contacts/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const doing = { action: `read contact ${id}`, noun: 'contact', id };
	return [(await client.request({ method: 'GET', path: `/contacts/${id}`, expect: 'record', itemIndex, doing })).data as IDataObject];
}
