import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as call from './call.operation';

export const operations: ResourceOperations<'customApiCall'> = { call };

/**
 * The node's own "Custom API Call" in its Resource list. n8n (2.41, 1.123) adds one of its own, which runs nothing
 * here, only to a node whose default version is its only version; this node has two, so the list shows this one alone.
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
