import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import { buildBody } from '../shared/fields';
import { readRecordId } from '../shared/locator';
import { sentUnderAnswer } from '../shared/sent';
import { invoiceFields, lineFields } from './fields';

export const description = forOperation('invoice', 'create', [
	recordLocator('contact', 'searchContacts', 'The contact the invoice is addressed to'),
	{
		displayName: 'Line Items',
		name: 'lineItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Line Item',
		description: 'What is billed; lines can also come as a "lines" array in Extra Fields (JSON)',
		options: [{ displayName: 'Line', name: 'line', values: Object.values(lineFields).map((spec) => spec.property) }],
	},
	fieldsCollection(invoiceFields),
]);

/**
 * POST /invoices. An invoice has no natural key, so a create whose answer was lost stays an error that says the
 * ERP may have written it: never repeated. The output is what was sent (its lines included) under the ERP's answer.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = buildBody.call(this, itemIndex, invoiceFields, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	body.contact_id = readRecordId.call(this, 'contact', itemIndex);
	const lines = (this.getNodeParameter('lineItems.line', itemIndex, []) as IDataObject[]).map((line) =>
		buildBody.call(this, itemIndex, lineFields, line),
	);
	if (lines.length) body.lines = lines;
	const doing = { action: 'create the invoice', noun: 'invoice' };
	const { data } = await client.request({ method: 'POST', path: '/invoices', body, expect: 'record', itemIndex, doing });
	return [sentUnderAnswer(body, data as IDataObject)];
}
