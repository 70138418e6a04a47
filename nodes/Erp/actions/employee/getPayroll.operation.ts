import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator, returnAllAndLimit } from '../common.descriptions';
import { listItems, readLimit } from '../shared/listing';
import { readRecordId } from '../shared/locator';

const TOOL_TEXT =
	'Get what an employee was paid. Argument: the employee\'s ID (a whole number). Returns one entry per pay ' +
	'run with period, pay_date, gross, deductions, net and currency; the list stops at 10 pay runs unless the ' +
	'tool is set to more.';

export const description = forOperation('employee', 'getPayroll', [
	recordLocator('employee', 'searchEmployees', 'The employee whose payroll history to get'),
	...returnAllAndLimit,
], TOOL_TEXT);

/** GET /employees/{id}/payroll, page by page: one item per pay run. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'employee', itemIndex);
	const limit = readLimit.call(this, itemIndex);
	const doing = { action: `read the payroll of employee ${id}`, noun: 'employee', id };
	return await listItems.call(this, client, { path: `/employees/${id}/payroll`, limit, itemIndex, doing });
}
