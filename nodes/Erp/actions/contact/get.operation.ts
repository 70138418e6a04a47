import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, outputProperties, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { shapeRecords } from '../shared/output';

const TOOL_TEXT =
	'Get a contact in the ERP by its ID. Returns the contact.';

export const description = forOperation('contact', 'get', [recordLocator('contact', 'searchContacts', 'The contact to get'), ...outputProperties], TOOL_TEXT);

/** GET /contacts/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'contact', itemIndex);
	const doing = { action: `read contact ${id}`, noun: 'contact', id };
	const { data } = await client.request({ method: 'GET', path: `/contacts/${id}`, expect: 'record', itemIndex, doing });
	return shapeRecords.call(this, 'contact', itemIndex, [data as IDataObject]);
}
