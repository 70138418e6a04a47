import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

export const description = forOperation('invoice', 'get', [recordLocator('invoice', 'searchInvoices', 'The invoice to get')]);

/** GET /invoices/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const doing = { action: `read invoice ${id}`, noun: 'invoice', id };
	return [(await client.request({ method: 'GET', path: `/invoices/${id}`, expect: 'record', itemIndex, doing })).data as IDataObject];
}
