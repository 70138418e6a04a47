import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const operations: ResourceOperations<'contact'> = { create, delete: del, get, getAll, update, upsert };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Add a new contact to the ERP from the fields you map', action: 'Create a contact' },
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a contact',
			},
			{ name: 'Delete', value: 'delete', description: 'Remove a contact from the ERP by its ID', action: 'Delete a contact' },
			{ name: 'Get', value: 'get', description: 'Retrieve one contact by its ID', action: 'Get a contact' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Retrieve a list of contacts, filtered by company, email or creation date',
				action: 'Get many contacts',
			},
			{ name: 'Update', value: 'update', description: 'Change fields of an existing contact, keeping the others', action: 'Update a contact' },
		],
		default: 'create',
	},
	...create.description,
	...upsert.description,
	...get.description,
	...getAll.description,
	...update.description,
	...del.description,
];
