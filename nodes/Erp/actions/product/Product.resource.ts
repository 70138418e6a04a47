import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getStock from './getStock.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const operations: ResourceOperations<'product'> = { create, get, getAll, getStock, update, upsert };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Add a new product with its price and low-stock threshold', action: 'Create a product' },
			{
				name: 'Create or Update',
				value: 'upsert',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
				action: 'Create or update a product',
			},
			{ name: 'Get', value: 'get', description: 'Retrieve one product by its ID', action: 'Get a product' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Retrieve a list of products, filtered by SKU, active state or low stock',
				action: 'Get many products',
			},
			{
				name: 'Get Stock',
				value: 'getStock',
				description: 'Retrieve how many units of a product each warehouse holds and has reserved',
				action: 'Get the stock of a product',
			},
			{ name: 'Update', value: 'update', description: 'Change fields of an existing product, keeping the others', action: 'Update a product' },
		],
		default: 'create',
	},
	...create.description,
	...upsert.description,
	...get.description,
	...getAll.description,
	...getStock.description,
	...update.description,
];
