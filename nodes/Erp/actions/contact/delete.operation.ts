import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { isObject } from '../../transport/types';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

export const description = forOperation('contact', 'delete', [recordLocator('contact', 'searchContacts', 'The contact to delete')]);

/** DELETE /contacts/{id}: the document shows no answer, so one without the contact (204) is summed up here. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const doing = { action: `delete contact ${id}`, noun: 'contact', id };
	const { data } = await client.request({ method: 'DELETE', path: `/contacts/${id}`, itemIndex, doing });
	return [isObject(data) ? data : { id, deleted: true }];
}
