import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getMany, getManyDescription } from '../shared/listing';
import { contactFilters } from './fields';

/** GET /contacts: also how a contact is found by e-mail, and the contact pick list. */
export const listPath = '/contacts';

export const description = getManyDescription('contact', contactFilters);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, listPath, contactFilters);
}
