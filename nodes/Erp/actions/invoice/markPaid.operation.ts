import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { isObject } from '../../../shared/transport/types';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';
import { buildBody } from '../shared/fields';
import { readRecordId } from '../shared/locator';

const payment: FieldSpecs = {
	paidAt: {
		apiName: 'paid_at',
		kind: 'dateTime',
		property: {
			displayName: 'Paid At',
			name: 'paidAt',
			type: 'dateTime',
			default: '',
			description: 'When the payment arrived; the ERP uses now when empty',
		},
	},
	// The ERP's own list of methods may be longer: an expression can send any other value.
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
		property: { displayName: 'Reference', name: 'reference', type: 'string', default: '', description: 'For example the bank transaction ID' },
	},
};

const TOOL_TEXT =
	'Mark an invoice as paid in the ERP by its ID. Returns the ERP\'s answer, or {id, paid: true} when it ' +
	'gives none.';

export const description = forOperation('invoice', 'markPaid', [
	recordLocator('invoice', 'searchInvoices', 'The invoice that was paid'),
	fieldsCollection(payment, { freeForm: false }),
], TOOL_TEXT);

/** POST /invoices/{id}/mark-paid: the document shows no answer, so one without the invoice is summed up here. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const body = buildBody.call(this, itemIndex, payment, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject, 'additionalFields');
	const doing = { action: `mark invoice ${id} as paid`, noun: 'invoice', id };
	const { data } = await client.request({ method: 'POST', path: `/invoices/${id}/mark-paid`, body, itemIndex, doing });
	return [isObject(data) ? data : { id, paid: true }];
}
