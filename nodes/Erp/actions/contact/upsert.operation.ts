import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { forOperation, recordOr } from '../shared/operation';
import { ASSIGNED_FIELDS, mergeChanges } from '../shared/update';
import { contactFields } from './fields';
import { contactByEmail, withFullRecord } from './lookup';

export const description = forOperation('contact', 'upsert', columnsDescription('getContactFields', 'contact'));

/**
 * GET /contacts?email=…; for the one contact found GET /contacts/{id} and PUT /contacts/{id} with it whole,
 * changed (as Update does); for none, POST /contacts.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const email = requireKey.call(this, contactByEmail, body, itemIndex);
	const outcome = await createUnlessFound(client, contactByEmail, email, itemIndex, {
		create: async (resolveUnclear) =>
			await client.request({ method: 'POST', path: '/contacts', body, itemIndex, resolveUnclear, doing: { action: 'create the contact', noun: 'contact' } }),
		whenFound: async ({ id }) => {
			const read = { action: `read contact ${String(id)}`, noun: 'contact', id: String(id) };
			const current = await client.request({ method: 'GET', path: `/contacts/${String(id)}`, expect: 'record', itemIndex, doing: read });
			const merged = mergeChanges(current.data as IDataObject, body, ASSIGNED_FIELDS);
			const doing = { ...read, action: `update contact ${String(id)}` };
			const { data } = await client.request({ method: 'PUT', path: `/contacts/${String(id)}`, body: merged, itemIndex, doing });
			return { action: 'updated', record: recordOr(data, { id, ...merged }) };
		},
	});
	if (outcome.action === 'created') outcome.record = await withFullRecord.call(this, client, outcome.record, itemIndex);
	return [outcomeJson(outcome)];
}
