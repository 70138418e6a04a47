import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { isObject } from '../../../shared/transport/types';
import { fieldsCollection, forOperation, recordLocator } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';
import { buildBody } from '../shared/fields';
import { readRecordId } from '../shared/locator';

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

const TOOL_TEXT =
	'Send an invoice from the ERP by its ID; calling it again may send it again. Returns the ERP\'s ' +
	'answer, or {id, sent: true} when it gives none.';

export const description = forOperation('invoice', 'send', [
	recordLocator('invoice', 'searchInvoices', 'The invoice to send'),
	fieldsCollection(recipient, { freeForm: false }),
], TOOL_TEXT);

/** POST /invoices/{id}/send: the document shows no answer, so one without the invoice is summed up here. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'invoice', itemIndex);
	const body = buildBody.call(this, itemIndex, recipient, this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject, 'additionalFields');
	const doing = { action: `send invoice ${id}`, noun: 'invoice', id };
	const { data } = await client.request({ method: 'POST', path: `/invoices/${id}/send`, body, itemIndex, doing });
	return [isObject(data) ? data : { id, sent: true }];
}
