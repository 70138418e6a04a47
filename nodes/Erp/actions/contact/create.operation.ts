import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { createOperation } from '../common/createOperation';
import { contactFields } from './fields';

const create = createOperation('contact', contactFields, ['firstName', 'lastName', 'email', 'phone', 'company'], ['firstName']);

export const description = create.description;

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const [created] = await create.execute.call(this, client, itemIndex);
	// The document promises only {id, first_name, created_at} back; the full record costs one more request.
	if (this.getNodeParameter('options.fetchFullRecord', itemIndex, false) && created?.id !== undefined) {
		try {
			const full = await client.request({ method: 'GET', path: `/contacts/${String(created.id)}`, itemIndex });
			return [full.data as IDataObject];
		} catch (error) {
			// The contact exists now: failing the item would invite a re-run that creates it a second time.
			return [{ ...created, fullRecordError: `Created, but reading the full contact failed: ${(error as Error).message}` }];
		}
	}
	return [created];
}
