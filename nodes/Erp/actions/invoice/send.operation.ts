import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { buildBody } from '../common/fields';
import { readRecordId, recordLocator } from '../common/locator';

const recipient = {
	email: {
		apiName: 'email',
		kind: 'email' as const,
		property: {
			displayName: 'Recipient Email',
			name: 'email',
			type: 'string' as const,
			placeholder: 'name@example.com',
			default: '',
			description: "Where to send the invoice; the ERP uses the contact's email when empty",
		},
	},
};

const properties: INodeProperties[] = [
	recordLocator('invoice', 'searchInvoices', 'The invoice to send'),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [recipient.email.property],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['send'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const body = buildBody.call(this, itemIndex, recipient, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	return [(await client.request({ method: 'POST', path: `/invoices/${id}/send`, body, itemIndex })).data as IDataObject];
}
