import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { deletedItem } from '../shared/version';

const TOOL_TEXT =
	'Delete a contact in the ERP by its ID. Returns {deleted: true, id}.';

export const description = forOperation('contact', 'delete', [recordLocator('contact', 'searchContacts', 'The contact to delete')], TOOL_TEXT);

/** DELETE /contacts/{id}; the item confirms the delete (version.ts). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const doing = { action: `delete contact ${id}`, noun: 'contact', id };
	const { data } = await client.request({ method: 'DELETE', path: `/contacts/${id}`, itemIndex, doing });
	return [deletedItem(this.getNode(), id, data)];
}
