import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { forOperation, recordLocator } from '../common.descriptions';
import { readRecordId } from '../shared/locator';

export const description = forOperation('employee', 'get', [recordLocator('employee', 'searchEmployees', 'The employee to get')]);

/** GET /employees/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'employee', itemIndex);
	const doing = { action: `read employee ${id}`, noun: 'employee', id };
	return [(await client.request({ method: 'GET', path: `/employees/${id}`, expect: 'record', itemIndex, doing })).data as IDataObject];
}
