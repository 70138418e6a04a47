import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { columnsDescription, forOperation } from '../common.descriptions';
import { mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { employeeFields } from './fields';
import { employeeByEmail } from './lookup';

const TOOL_TEXT =
	'Create or get an employee in the ERP: an employee with the same email is returned as it is (the ERP ' +
	'cannot update employees), otherwise one is created, so calling it twice never makes a duplicate. ' +
	'Returns the employee with its ID (a whole number) and action "created" or "existing".';

export const description = forOperation('employee', 'createIfNew', [
	{
		displayName:
			'The ERP API has no way to update an employee: an employee whose email is already in the ERP is output as it is, marked "existing"',
		name: 'createIfNewNotice',
		type: 'notice',
		default: '',
	},
	...columnsDescription('getEmployeeFields', 'employee'),
], TOOL_TEXT);

/** GET /employees?email=…, then POST /employees only when no employee has that e-mail. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, employeeFields, 'employee');
	const email = requireKey.call(this, employeeByEmail, body, itemIndex);
	const doing = { action: 'create the employee', noun: 'employee' };
	const outcome = await createUnlessFound(client, employeeByEmail, body, email, itemIndex, {
		create: async () => await client.exchange({ method: 'POST', path: '/employees', body, itemIndex, doing }),
		whenFound: async (found) => ({ action: 'existing', record: found }),
	});
	return [outcomeJson(outcome)];
}
