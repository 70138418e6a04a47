import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { getManyDescription } from '../common.descriptions';
import { getMany } from '../shared/listing';
import { employeeFilters } from './fields';

const TOOL_TEXT =
	'Search employees. Optional filters: search (text in the name or email), department, status (active or ' +
	'terminated), employment_type (full_time, part_time or contractor). Returns a list of employees with id, ' +
	'names, email, job_title and department; an empty list when none match. The list stops at 10 employees ' +
	'(unless the tool is set to more): narrow the filters to find a particular one.';

export const description = getManyDescription('employee', employeeFilters, TOOL_TEXT);

/** GET /employees, page by page. */
export async function execute(this: IExecuteFunctions, client: ErpClient, itemIndex: number): Promise<IDataObject[]> {
	return await getMany.call(this, client, itemIndex, employeeFilters, 'employee', { path: '/employees', doing: { action: 'list employees', noun: 'employee' } });
}
