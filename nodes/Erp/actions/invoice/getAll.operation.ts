import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getMany, getManyDescription } from '../shared/listing';
import { invoiceFilters } from './fields';

/** GET /invoices: also the invoice pick list. */
export const listPath = '/invoices';

export const description = getManyDescription('invoice', invoiceFilters);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, listPath, invoiceFilters);
}
