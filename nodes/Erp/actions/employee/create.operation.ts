import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { ErpResponse, UnclearResolution } from '../../transport/types';
import { columnsDescription, mappedBody } from '../shared/columns';
import type { KeyedResource } from '../shared/keyed';
import { createKeyed } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { employeeFields } from './fields';
import { listPath } from './getAll.operation';

export const description = forOperation('employee', 'create', columnsDescription('getEmployeeFields', 'employee'));

/** POST /employees */
async function createEmployee(
	client: ErpClient,
	body: IDataObject,
	itemIndex: number,
	resolveUnclear?: () => Promise<UnclearResolution>,
): Promise<ErpResponse> {
	return await client.request({ method: 'POST', path: '/employees', body, itemIndex, resolveUnclear });
}

/** Employees are found by e-mail: for Create If New, and to settle a create whose answer was lost. */
export const keyedEmployees: KeyedResource = { noun: 'employee', key: 'email', listPath, create: createEmployee };

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, employeeFields, 'employee');
	const { record, recovered } = await createKeyed(client, keyedEmployees, body, itemIndex);
	return [recovered ? { ...record, recovered } : record];
}
