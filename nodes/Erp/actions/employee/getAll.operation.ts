import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { employeeFilters } from './fields';

export const description = getManyDescription('employee', employeeFilters);

/** GET /employees, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, employeeFilters, { path: '/employees', doing: { action: 'list employees', noun: 'employee' } });
}
