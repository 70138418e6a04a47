import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { contactFilters } from './fields';

export const description = getManyDescription('contact', contactFilters);

/** GET /contacts, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, contactFilters, { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } });
}
