import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as markPaid from './markPaid.operation';
import * as send from './send.operation';

export const operations: ResourceOperations<'invoice'> = { create, get, getAll, markPaid, send };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Bill a contact: a new invoice from line items', action: 'Create an invoice' },
			{ name: 'Get', value: 'get', description: 'Retrieve one invoice by its ID', action: 'Get an invoice' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Retrieve a list of invoices, filtered by status, contact or due date',
				action: 'Get many invoices',
			},
			{ name: 'Mark as Paid', value: 'markPaid', description: 'Record the payment that settles an invoice', action: 'Mark an invoice as paid' },
			{ name: 'Send', value: 'send', description: 'Email an invoice to its contact or to another address', action: 'Send an invoice' },
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...markPaid.description,
	...send.description,
];
