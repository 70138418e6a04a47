import { createOperation } from '../common/createOperation';
import { employeeFields } from './fields';

const REQUIRED = ['firstName', 'lastName', 'email'];

export const { description, execute } = createOperation('employee', employeeFields, REQUIRED, REQUIRED);
