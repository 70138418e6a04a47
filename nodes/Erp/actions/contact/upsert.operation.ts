import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { ASSIGNED_FIELDS, putWhole } from '../shared/update';
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
	const outcome = await createUnlessFound(client, contactByEmail, body, email, itemIndex, {
		create: async (resolveUnclear) =>
			await client.request({ method: 'POST', path: '/contacts', body, itemIndex, resolveUnclear, doing: { action: 'create the contact', noun: 'contact' } }),
		whenFound: async ({ id }) => {
			const read = { method: 'GET', path: `/contacts/${String(id)}`, itemIndex, doing: { action: `read contact ${String(id)}`, noun: 'contact', id: id as number } } as const;
			const write = { method: 'PUT', path: `/contacts/${String(id)}`, itemIndex, doing: { ...read.doing, action: `update contact ${String(id)}` } } as const;
			return { action: 'updated', record: await putWhole(client, { read, write }, body, ASSIGNED_FIELDS) };
		},
	});
	if (outcome.action === 'created') outcome.record = await withFullRecord.call(this, client, outcome.record, itemIndex);
	return [outcomeJson(outcome)];
}
