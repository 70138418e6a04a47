import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getMany, getManyDescription } from '../shared/listing';
import { employeeFilters } from './fields';

/** GET /employees: also how an employee is found by e-mail, and the employee pick list. */
export const listPath = '/employees';

export const description = getManyDescription('employee', employeeFilters);

export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, listPath, employeeFilters);
}
