import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import type { KeyedResource } from '../shared/keyed';
import { createdItem, createKeyed } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { employeeFields } from './fields';
import { listPath } from './getAll.operation';

export const description = forOperation('employee', 'create', columnsDescription('getEmployeeFields', 'employee'));

/** POST /employees. Employees are found by e-mail (GET /employees?email=…): for Create If New, and to settle a create whose answer was lost. */
export const keyedEmployees: KeyedResource = { noun: 'employee', key: 'email', listPath, createPath: '/employees' };

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, employeeFields, 'employee');
	return [createdItem(await createKeyed(client, keyedEmployees, body, itemIndex))];
}
