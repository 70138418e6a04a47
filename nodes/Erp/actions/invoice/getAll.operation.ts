import { getManyOperation } from '../common/recordOperations';
import { invoiceFilters } from './fields';

export const { description, execute } = getManyOperation('invoice', invoiceFilters);
