import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { buildBody, customFieldsOption, extraFieldsOption, requireFields, sortedOptions } from '../common/fields';
import { contactFields as fields } from './fields';

const properties: INodeProperties[] = [
	{ ...fields.firstName.property, required: true },
	fields.lastName.property,
	fields.email.property,
	fields.phone.property,
	fields.company.property,
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: sortedOptions([fields.notes.property, customFieldsOption, extraFieldsOption]),
	},
];

export const description = updateDisplayOptions({ show: { resource: ['contact'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const values: IDataObject = {
		...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
	};
	for (const name of ['firstName', 'lastName', 'email', 'phone', 'company']) {
		values[name] = this.getNodeParameter(name, itemIndex, '');
	}
	const body = buildBody.call(this, itemIndex, fields, values);
	requireFields.call(this, itemIndex, fields, body, ['firstName']);

	// The document promises only {id, first_name, created_at} back; the full record costs one more request.
	const created = (await client.request({ method: 'POST', path: '/contacts', body, itemIndex })).data as IDataObject;
	if (this.getNodeParameter('options.fetchFullRecord', itemIndex, false) && created?.id !== undefined) {
		const full = await client.request({ method: 'GET', path: `/contacts/${String(created.id)}`, itemIndex });
		return [full.data as IDataObject];
	}
	return [created];
}
