import { updateOperation } from '../common/recordOperations';
import { contactFields } from './fields';

export const { description, execute } = updateOperation('contact', contactFields);
