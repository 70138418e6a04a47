import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { forOperation, outputProperties, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';
import { shapeRecords } from '../shared/output';

const TOOL_TEXT =
	'Get an employee in the ERP by its ID. Returns the employee.';

export const description = forOperation('employee', 'get', [recordLocator('employee', 'searchEmployees', 'The employee to get'), ...outputProperties], TOOL_TEXT);

/** GET /employees/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'employee', itemIndex);
	const doing = { action: `read employee ${id}`, noun: 'employee', id };
	const { data } = await client.request({ method: 'GET', path: `/employees/${id}`, expect: 'record', itemIndex, doing });
	return shapeRecords.call(this, 'employee', itemIndex, [data as IDataObject]);
}
