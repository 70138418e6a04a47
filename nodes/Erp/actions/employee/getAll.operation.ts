import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { employeeFilters } from './fields';

const TOOL_TEXT =
	'Get many employees in the ERP. Returns a list of employees, each with its ID (a whole number), or an ' +
	'empty list; it may not hold every match.';

export const description = getManyDescription('employee', employeeFilters, TOOL_TEXT);

/** GET /employees, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, employeeFilters, 'employee', { path: '/employees', doing: { action: 'list employees', noun: 'employee' } });
}
