import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { FieldSpecs } from '../common/fields';
import { buildBody, fieldsCollection } from '../common/fields';
import { readRecordId, recordLocator } from '../common/locator';

const recipient: FieldSpecs = {
	email: {
		apiName: 'email',
		kind: 'email',
		property: {
			displayName: 'Recipient Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@example.com',
			default: '',
			description: "Where to send the invoice; the ERP uses the contact's email when empty",
		},
	},
};

const properties: INodeProperties[] = [
	recordLocator('invoice', 'searchInvoices', 'The invoice to send'),
	fieldsCollection(recipient, { freeForm: false }),
];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['send'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const body = buildBody.call(this, itemIndex, recipient, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	return [(await client.request({ method: 'POST', path: `/invoices/${id}/send`, body, itemIndex })).data as IDataObject];
}
