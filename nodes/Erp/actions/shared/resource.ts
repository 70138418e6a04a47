import type { INodeProperties } from 'n8n-workflow';

/** The Resource parameter of the ERP node and of the ERP Polling Trigger: the API document's four resources. */
export function resourceProperty(defaultResource: 'contact' | 'invoice'): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Contact', value: 'contact' },
			{ name: 'Employee', value: 'employee' },
			{ name: 'Invoice', value: 'invoice' },
			{ name: 'Product', value: 'product' },
		],
		default: defaultResource,
	};
}
