import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as call from './call.operation';

export const operations: ResourceOperations<'customApiCall'> = { call };

/**
 * The node's own "Custom API Call" in its Resource list. n8n 2.41 and 1.123 add one of their own (value
 * __CUSTOM_API_CALL__, for the HTTP Request node) to the Resource and Operation lists of a node only when its
 * credential's description carries `authenticate` as its own field and its default version is its only version.
 * Neither holds here (the ERP API credential's authenticate is a method, which n8n's copy of the description drops;
 * the node has versions 1 and 1.1), so the lists show this one alone (test/editor, test/e2e).
 */
export const resourceOption: INodePropertyOptions = {
	name: 'Custom API Call',
	value: 'customApiCall',
	description: 'Any endpoint of your ERP below the Base URL, such as one the node does not list',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApiCall'] } },
		options: [
			{
				name: 'Call',
				value: 'call',
				description: "Send any method to any path below the Base URL, with the node's retries, paging and error messages",
				action: 'Make a custom API call',
			},
		],
		default: 'call',
	},
	...call.description,
];
