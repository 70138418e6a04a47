import { getManyOperation } from '../common/recordOperations';
import { employeeFilters } from './fields';

export const { description, execute } = getManyOperation('employee', employeeFilters);
