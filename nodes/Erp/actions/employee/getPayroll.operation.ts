import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, recordLocator, returnAllAndLimit } from '../common.descriptions';
import { listItems, readLimit } from '../shared/listing';
import { readRecordId } from '../shared/locator';

const TOOL_TEXT =
	'Get the payroll history of an employee in the ERP by the employee\'s ID. Returns its entries as the ' +
	'ERP sends them; the list may not hold every entry.';

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
