import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

const TOOL_TEXT =
	'Delete a contact for good. Argument: the contact\'s ID (a whole number; find it with the contact search' +
	' tool). Returns {deleted: true, id}.';

export const description = forOperation('contact', 'delete', [recordLocator('contact', 'searchContacts', 'The contact to delete')], TOOL_TEXT);

/**
 * DELETE /contacts/{id}. Whatever the ERP answers (the document shows none: a 204, a confirmation, the removed
 * contact), the item is n8n's confirmation of a delete, with the ID that was deleted.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const doing = { action: `delete contact ${id}`, noun: 'contact', id };
	await client.request({ method: 'DELETE', path: `/contacts/${id}`, itemIndex, doing });
	return [{ deleted: true, id }];
}
