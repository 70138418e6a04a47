import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { readRecordId, recordLocator } from '../shared/locator';
import { forOperation, requestRecord } from '../shared/operation';

export const description = forOperation('employee', 'get', [recordLocator('employee', 'searchEmployees', 'The employee to get')]);

/** GET /employees/{id} */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	const id = readRecordId.call(this, 'employee', itemIndex);
	return [await requestRecord(client, { method: 'GET', path: `/employees/${id}`, itemIndex })];
}
