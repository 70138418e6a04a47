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
			{ name: 'Create', value: 'create', description: 'Add an employee', action: 'Create an employee' },
			{
				name: 'Create If New',
				value: 'createIfNew',
				description: 'Add an employee unless one with the same email exists',
				action: 'Create an employee if new',
			},
			{ name: 'Get', value: 'get', description: 'Get an employee profile', action: 'Get an employee' },
			{ name: 'Get Many', value: 'getAll', description: 'Get many employees', action: 'Get many employees' },
			{
				name: 'Get Payroll',
				value: 'getPayroll',
				description: 'Get the payroll (salary) history of an employee',
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
