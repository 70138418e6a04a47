import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createdItem, createKeyed } from '../shared/keyed';
import { employeeFields } from './fields';
import { employeeByEmail } from './lookup';

const TOOL_TEXT =
	'Create an employee in the ERP. Returns the new employee with its ID (a whole number). Calling it ' +
	'twice can create the same employee twice.';

export const description = forOperation('employee', 'create', columnsDescription('getEmployeeFields', 'employee'), TOOL_TEXT);

/** POST /employees; a create whose answer was lost is settled by looking the e-mail up (GET /employees?email=…). */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, employeeFields, 'employee');
	const doing = { action: 'create the employee', noun: 'employee' };
	const created = await createKeyed(client, employeeByEmail, body, itemIndex, async () =>
		await client.exchange({ method: 'POST', path: '/employees', body, itemIndex, doing }),
	);
	return [createdItem(created)];
}
