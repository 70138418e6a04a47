import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, requestRecord } from '../shared/operation';

export const description = forOperation('invoice', 'get', [recordLocator('invoice', 'searchInvoices', 'The invoice to get')]);

/** GET /invoices/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	return [await requestRecord(client, { method: 'GET', path: `/invoices/${id}`, itemIndex })];
}
