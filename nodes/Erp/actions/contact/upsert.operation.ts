import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { ASSIGNED_FIELDS, putWhole } from '../shared/update';
import { contactFields } from './fields';
import { contactByEmail, withFullRecord } from './lookup';

const TOOL_TEXT =
	'Create or update a contact in the ERP: the contact with the same email is updated, otherwise a new ' +
	'one is created, so calling it twice never makes a duplicate. Returns the contact with its ID (a ' +
	'whole number) and action "created" or "updated".';

export const description = forOperation('contact', 'upsert', columnsDescription('getContactFields', 'contact'), TOOL_TEXT);

/**
 * GET /contacts?email=…; for the one contact found GET /contacts/{id} and PUT /contacts/{id} with it whole,
 * changed (as Update does); for none, POST /contacts.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const email = requireKey.call(this, contactByEmail, body, itemIndex);
	const outcome = await createUnlessFound(client, contactByEmail, body, email, itemIndex, {
		create: async () =>
			await client.exchange({ method: 'POST', path: '/contacts', body, itemIndex, doing: { action: 'create the contact', noun: 'contact' } }),
		whenFound: async (found) => {
			const id = found.id as number | string;
			const read = { method: 'GET', path: `/contacts/${id}`, itemIndex, doing: { action: `read contact ${id}`, noun: 'contact', id } } as const;
			const write = { method: 'PUT', path: `/contacts/${id}`, itemIndex, doing: { action: `update contact ${id}`, noun: 'contact', id } } as const;
			return { action: 'updated', record: await putWhole(client, { read, write }, body, ASSIGNED_FIELDS) };
		},
	});
	if (outcome.action === 'created') outcome.record = await withFullRecord.call(this, client, outcome.record, itemIndex);
	return [outcomeJson(outcome)];
}
