import { getManyOperation } from '../common/recordOperations';
import { contactFilters } from './fields';

export const { description, execute } = getManyOperation('contact', contactFilters);
