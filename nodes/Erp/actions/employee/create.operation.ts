import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { buildBody, customFieldsOption, extraFieldsOption, requireFields, sortedOptions } from '../common/fields';
import { employeeFields as fields } from './fields';

const { firstName, lastName, email, ...optional } = fields;
const REQUIRED = ['firstName', 'lastName', 'email'];

const properties: INodeProperties[] = [
	{ ...firstName.property, required: true },
	{ ...lastName.property, required: true },
	{ ...email.property, required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: sortedOptions([...Object.values(optional).map((spec) => spec.property), customFieldsOption, extraFieldsOption]),
	},
];

export const description = updateDisplayOptions({ show: { resource: ['employee'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const values: IDataObject = { ...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject) };
	for (const name of REQUIRED) values[name] = this.getNodeParameter(name, itemIndex, '');
	const body = buildBody.call(this, itemIndex, fields, values);
	requireFields.call(this, itemIndex, fields, body, REQUIRED);
	return [(await client.request({ method: 'POST', path: '/employees', body, itemIndex })).data as IDataObject];
}
