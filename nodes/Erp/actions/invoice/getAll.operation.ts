import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { invoiceFilters } from './fields';

export const description = getManyDescription('invoice', invoiceFilters);

/** GET /invoices, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, invoiceFilters, { path: '/invoices', doing: { action: 'list invoices', noun: 'invoice' } });
}
