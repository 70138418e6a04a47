import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { keyedContacts, withFullRecord } from './create.operation';
import { contactFields } from './fields';
import { updateContact } from './update.operation';

export const description = forOperation('contact', 'upsert', columnsDescription('getContactFields', 'contact'));

/** GET /contacts?email=…, then PUT /contacts/{id} for the one found (as Update does) or POST /contacts. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, contactFields, 'contact');
	const email = requireKey.call(this, keyedContacts, body, itemIndex);
	const outcome = await createUnlessFound(this.getNode(), client, keyedContacts, body, email, itemIndex, async (found) => ({
		action: 'updated',
		record: await updateContact(client, found.id, body, itemIndex),
	}));
	if (outcome.action === 'created') outcome.record = await withFullRecord.call(this, client, outcome.record, itemIndex);
	return [outcomeJson(outcome)];
}
