import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { invoiceFilters } from './fields';

const TOOL_TEXT =
	'Search invoices. Optional filters: status (draft, sent, overdue or paid), the contact\'s ID (a whole ' +
	'number), currency (a code such as EUR), due_after and due_before (dates as YYYY-MM-DD), and search (the ' +
	'invoice number or part of it, e.g. INV-000042). Returns a list of invoices with id, number, contact_id, ' +
	'status, total, amount_due and due_date; an empty list when none match. The list stops at 10 invoices (unless the tool is set to more): narrow the filters to find a particular one.';

export const description = getManyDescription('invoice', invoiceFilters, TOOL_TEXT);

/** GET /invoices, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, invoiceFilters, 'invoice', { path: '/invoices', doing: { action: 'list invoices', noun: 'invoice' } });
}
