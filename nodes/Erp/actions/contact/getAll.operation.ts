import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { contactFilters } from './fields';

const TOOL_TEXT =
	'Get many contacts in the ERP. Returns a list of contacts, each with its ID (a whole number), or an ' +
	'empty list; it may not hold every match.';

export const description = getManyDescription('contact', contactFilters, TOOL_TEXT);

/** GET /contacts, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, contactFilters, 'contact', { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } });
}
