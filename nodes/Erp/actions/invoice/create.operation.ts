import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { buildBody, fieldsCollection } from '../common/fields';
import { readRecordId, recordLocator } from '../common/locator';
import { invoiceFields as fields, lineFields } from './fields';

const properties: INodeProperties[] = [
	recordLocator('contact', 'searchContacts', 'The contact the invoice is addressed to'),
	{
		displayName: 'Line Items',
		name: 'lineItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Line Item',
		description: 'What is billed. Lines can also come as a "lines" array in Extra Fields (JSON).',
		options: [{ displayName: 'Line', name: 'line', values: Object.values(lineFields).map((spec) => spec.property) }],
	},
	fieldsCollection(fields),
];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['create'] } }, properties);

function readLines(this: IExecuteFunctions, itemIndex: number): IDataObject[] | undefined {
	const lines = (this.getNodeParameter('lineItems.line', itemIndex, []) as IDataObject[]).map((line, position) => {
		const body = buildBody.call(this, itemIndex, lineFields, line);
		if (!body.description) {
			throw new NodeOperationError(this.getNode(), `Line Items › line ${position + 1} has no Description: enter what is billed`, {
				itemIndex,
			});
		}
		if (body.unit_price === undefined) {
			throw new NodeOperationError(this.getNode(), `Line Items › line ${position + 1} has no Unit Price: enter the price of one unit`, {
				itemIndex,
			});
		}
		return body;
	});
	return lines.length ? lines : undefined;
}

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const contactId = readRecordId.call(this, 'contact', itemIndex);
	const body = buildBody.call(this, itemIndex, fields, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	body.contact_id = contactId;
	body.lines = readLines.call(this, itemIndex) ?? body.lines;
	if (!Array.isArray(body.lines) || body.lines.length === 0) {
		throw new NodeOperationError(this.getNode(), 'The invoice has no lines: add at least one under Line Items', {
			itemIndex,
			description: 'Each line needs a Description and a Unit Price. A "lines" array in Extra Fields (JSON) works as well.',
		});
	}
	return [(await client.request({ method: 'POST', path: '/invoices', body, itemIndex })).data as IDataObject];
}
