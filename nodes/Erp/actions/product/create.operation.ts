import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { buildBody, customFieldsOption, extraFieldsOption, requireFields, sortedOptions } from '../common/fields';
import { productFields as fields } from './fields';

const { sku, name, ...optional } = fields;

const properties: INodeProperties[] = [
	{ ...sku.property, required: true },
	{ ...name.property, required: true },
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: sortedOptions([...Object.values(optional).map((spec) => spec.property), customFieldsOption, extraFieldsOption]),
	},
];

export const description = updateDisplayOptions({ show: { resource: ['product'], operation: ['create'] } }, properties);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const values: IDataObject = {
		...(this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject),
		sku: this.getNodeParameter('sku', itemIndex, ''),
		name: this.getNodeParameter('name', itemIndex, ''),
	};
	const body = buildBody.call(this, itemIndex, fields, values);
	requireFields.call(this, itemIndex, fields, body, ['sku', 'name']);
	return [(await client.request({ method: 'POST', path: '/products', body, itemIndex })).data as IDataObject];
}
