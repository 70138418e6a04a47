import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { columnsDescription, mappedBody } from '../shared/columns';
import { createUnlessFound, outcomeJson, requireKey } from '../shared/keyed';
import { forOperation } from '../shared/operation';
import { keyedEmployees } from './create.operation';
import { employeeFields } from './fields';

export const description = forOperation('employee', 'createIfNew', [
	{
		displayName:
			'The ERP API has no way to update an employee: an employee whose email is already in the ERP is output as it is, marked "existing"',
		name: 'createIfNewNotice',
		type: 'notice',
		default: '',
	},
	...columnsDescription('getEmployeeFields', 'employee'),
]);

/** GET /employees?email=…, then POST /employees only when no employee has that e-mail. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const body = mappedBody.call(this, itemIndex, employeeFields, 'employee');
	const email = requireKey.call(this, keyedEmployees, body, itemIndex);
	const outcome = await createUnlessFound(this.getNode(), client, keyedEmployees, body, email, itemIndex, async (found) => ({
		action: 'existing',
		record: found,
	}));
	return [outcomeJson(outcome)];
}
