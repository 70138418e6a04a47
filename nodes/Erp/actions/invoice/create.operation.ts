import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import { buildBody } from '../shared/fields';
import { readRecordId } from '../shared/locator';
import { writtenItem } from '../shared/version';
import { invoiceFields, lineFields } from './fields';
import { linesJsonProperty, readLines } from './lines';

const TOOL_TEXT =
	'Create an invoice in the ERP for a contact. Each call creates another invoice, even with the same ' +
	'content: call it once per invoice. Returns the new invoice with its ID (a whole number).';

export const description = forOperation('invoice', 'create', [
	recordLocator('contact', 'searchContacts', 'The contact the invoice is addressed to'),
	{
		displayName: 'Line Items',
		name: 'lineItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Line Item',
		description: 'What is billed, line by line; lines can also come as a JSON list in Lines (JSON)',
		options: [{ displayName: 'Line', name: 'line', values: Object.values(lineFields).map((spec) => spec.property) }],
	},
	linesJsonProperty,
	fieldsCollection(invoiceFields),
], TOOL_TEXT);

/**
 * POST /invoices. An invoice has no natural key, so a create whose answer was lost stays an error that says the
 * ERP may have written it: never repeated. From version 1.1 on, the output is what was sent (its lines included)
 * under the ERP's answer.
 */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = buildBody.call(this, itemIndex, invoiceFields, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject, 'additionalFields');
	body.contact_id = readRecordId.call(this, 'contact', itemIndex);
	const lines = readLines.call(this, itemIndex);
	if (lines.length) body.lines = lines;
	const doing = { action: 'create the invoice', noun: 'invoice' };
	const { data } = await client.request({ method: 'POST', path: '/invoices', body, expect: 'record', itemIndex, doing });
	return [writtenItem(this.getNode(), body, data as IDataObject)];
}
