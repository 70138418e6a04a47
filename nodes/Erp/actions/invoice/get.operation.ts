import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, outputProperties, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { shapeRecords } from '../shared/output';

const TOOL_TEXT =
	'Get an invoice in the ERP by its ID. Returns the invoice.';

export const description = forOperation('invoice', 'get', [recordLocator('invoice', 'searchInvoices', 'The invoice to get'), ...outputProperties], TOOL_TEXT);

/** GET /invoices/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const doing = { action: `read invoice ${id}`, noun: 'invoice', id };
	const { data } = await client.request({ method: 'GET', path: `/invoices/${id}`, expect: 'record', itemIndex, doing });
	return shapeRecords.call(this, 'invoice', itemIndex, [data as IDataObject]);
}
