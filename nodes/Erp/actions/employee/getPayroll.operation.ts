import { recordListOperation } from '../common/recordOperations';

export const { description, execute } = recordListOperation(
	'employee',
	'getPayroll',
	'payroll',
	'The employee whose payroll history to get',
	true,
);
