import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { contactFilters } from './fields';

const TOOL_TEXT =
	'Search contacts. Optional filters: search (text in the first name, last name, email or company), email ' +
	'(the exact address), company, created_after and created_before (dates as YYYY-MM-DD). Returns a list of ' +
	'contacts, each with its id (a whole number), names, email, phone and company; an empty list when none ' +
	'match. The list stops at 10 contacts (unless the tool is set to more): narrow the filters to find a particular one.';

export const description = getManyDescription('contact', contactFilters, TOOL_TEXT);

/** GET /contacts, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, contactFilters, 'contact', { path: '/contacts', doing: { action: 'list contacts', noun: 'contact' } });
}
