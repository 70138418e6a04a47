import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { FieldSpecs } from '../common/fields';
import { buildBody, fieldsCollection } from '../common/fields';
import { readRecordId, recordLocator } from '../common/locator';

const payment: FieldSpecs = {
	paidAt: {
		apiName: 'paid_at',
		kind: 'dateTime',
		property: {
			displayName: 'Paid At',
			name: 'paidAt',
			type: 'dateTime',
			default: '',
			description: 'When the payment arrived; the ERP uses now when empty. Not in the future.',
		},
	},
	paymentMethod: {
		apiName: 'payment_method',
		kind: 'text',
		property: {
			displayName: 'Payment Method',
			name: 'paymentMethod',
			type: 'options',
			default: 'bank_transfer',
			options: [
				{ name: 'Bank Transfer', value: 'bank_transfer' },
				{ name: 'Card', value: 'card' },
				{ name: 'Cash', value: 'cash' },
				{ name: 'Other', value: 'other' },
			],
		},
	},
	reference: {
		apiName: 'reference',
		kind: 'text',
		property: {
			displayName: 'Reference',
			name: 'reference',
			type: 'string',
			default: '',
			description: 'For example the bank transaction ID',
		},
	},
};

const properties: INodeProperties[] = [
	recordLocator('invoice', 'searchInvoices', 'The invoice that was paid'),
	fieldsCollection(payment, { freeForm: false }),
];

export const description = updateDisplayOptions({ show: { resource: ['invoice'], operation: ['markPaid'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const body = buildBody.call(this, itemIndex, payment, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
	return [(await client.request({ method: 'POST', path: `/invoices/${id}/mark-paid`, body, itemIndex })).data as IDataObject];
}
