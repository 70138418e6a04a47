import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { paginate } from '../../../shared/transport/paginate';
import type { KeyLookup } from '../shared/keyed';
import { runWideParameter } from '../shared/runWide';

/** GET /contacts?email=…: how Create or Update finds a contact, and how a create whose answer was lost is settled. */
export const contactByEmail: KeyLookup = {
	noun: 'contact',
	key: 'email',
	pages: (client, email, itemIndex) =>
		paginate(client, { path: '/contacts', query: { email }, itemIndex, doing: { action: 'look up contacts by email', noun: 'contact' } }),
};

/**
 * GET /contacts/{id} after a create when Fetch Full Record is on: the contact as the ERP stores it replaces the sent
 * fields under its create answer (id, first_name, created_at), since showing what the ERP kept (and not what it
 * dropped or changed) is why the user asks. A failed read keeps the created contact's item.
 */
export async function withFullRecord(this: IExecuteFunctions, client: ErpClient, created: IDataObject, itemIndex: number): Promise<IDataObject> {
	const id = created.id;
	if (!runWideParameter.call(this, 'options.fetchFullRecord', itemIndex, false) || id === undefined) return created;
	try {
		const doing = { action: `read contact ${String(id)}`, noun: 'contact', id: String(id) };
		return (await client.request({ method: 'GET', path: `/contacts/${String(id)}`, expect: 'record', itemIndex, doing })).data as IDataObject;
	} catch (error) {
		// The contact exists now: failing the item would invite a re-run that creates it a second time.
		return { ...created, fullRecordError: `Created, but reading the full contact failed: ${(error as Error).message}` };
	}
}
