import { paginate } from '../../../shared/transport/paginate';
import type { KeyLookup } from '../shared/keyed';

/** GET /employees?email=…: how Create or Get finds an employee, and how a create whose answer was lost is settled. */
export const employeeByEmail: KeyLookup = {
	noun: 'employee',
	key: 'email',
	pages: (client, email, itemIndex) =>
		paginate(client, { path: '/employees', query: { email }, itemIndex, doing: { action: 'look up employees by email', noun: 'employee' } }),
};
