import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createdItem, createKeyed } from '../shared/keyed';
import { contactFields } from './fields';
import { contactByEmail, withFullRecord } from './lookup';

const TOOL_TEXT =
	'Create a contact in the ERP. Returns the new contact with its ID (a whole number). Calling it twice ' +
	'can create the same contact twice.';

export const description = forOperation('contact', 'create', columnsDescription('getContactFields', 'contact'), TOOL_TEXT);

/** POST /contacts; a create whose answer was lost is settled by looking the e-mail up (GET /contacts?email=…). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const doing = { action: 'create the contact', noun: 'contact' };
	const { record, recovered } = await createKeyed(client, contactByEmail, body, itemIndex, async () =>
		await client.exchange({ method: 'POST', path: '/contacts', body, itemIndex, doing }),
	);
	return [createdItem({ record: await withFullRecord.call(this, client, record, itemIndex), recovered })];
}
