import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { invoiceFilters } from './fields';

const TOOL_TEXT =
	'Get many invoices in the ERP. Returns a list of invoices, each with its ID (a whole number), or an ' +
	'empty list; it may not hold every match.';

export const description = getManyDescription('invoice', invoiceFilters, TOOL_TEXT);

/** GET /invoices, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, invoiceFilters, 'invoice', { path: '/invoices', doing: { action: 'list invoices', noun: 'invoice' } });
}
