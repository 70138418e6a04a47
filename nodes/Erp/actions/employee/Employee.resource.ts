import type { INodeProperties } from 'n8n-workflow';

import type { ResourceOperations } from '../node.type';
import * as create from './create.operation';
import * as createIfNew from './createIfNew.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getPayroll from './getPayroll.operation';

export const operations: ResourceOperations<'employee'> = { create, createIfNew, get, getAll, getPayroll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['employee'] } },
		options: [
			{ name: 'Create', value: 'create', description: 'Add a new hire to the ERP with their job, pay and start date', action: 'Create an employee' },
			{
				// Worded as Create or Update (contacts, products); the value stays: saved workflows hold it.
				name: 'Create or Get',
				value: 'createIfNew',
				description: 'Create a new record, or get the current one if it already exists (by email)',
				action: 'Create or get an employee',
			},
			{ name: 'Get', value: 'get', description: 'Retrieve one employee profile by its ID', action: 'Get an employee' },
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Retrieve a list of employees, filtered by department, status or employment type',
				action: 'Get many employees',
			},
			{
				name: 'Get Payroll',
				value: 'getPayroll',
				description: 'Retrieve what an employee was paid, one item per pay run',
				action: 'Get the payroll history of an employee',
			},
		],
		default: 'create',
	},
	...create.description,
	...createIfNew.description,
	...get.description,
	...getAll.description,
	...getPayroll.description,
];
