import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createdItem, createKeyed } from '../shared/keyed';
import { contactFields } from './fields';
import { contactByEmail, withFullRecord } from './lookup';

const TOOL_TEXT =
	'Create a new contact in the ERP. Arguments: first_name (required), last_name, email (name@example.com), ' +
	'phone (international format: + and the country code, e.g. +49 30 1234567), company, notes; leave out ' +
	'what you do not know. Returns the new contact with its id (a whole number). When the contact may already' +
	' exist, prefer the create-or-update tool: it matches by email and never makes a duplicate.';

export const description = forOperation('contact', 'create', columnsDescription('getContactFields', 'contact'), TOOL_TEXT);

/** POST /contacts; a create whose answer was lost is settled by looking the e-mail up (GET /contacts?email=…). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const doing = { action: 'create the contact', noun: 'contact' };
	const { record, recovered } = await createKeyed(client, contactByEmail, body, itemIndex, async (resolveUnclear) =>
		await client.request({ method: 'POST', path: '/contacts', body, itemIndex, resolveUnclear, doing }),
	);
	return [createdItem({ record: await withFullRecord.call(this, client, record, itemIndex), recovered })];
}
