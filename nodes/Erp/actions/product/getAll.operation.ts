import { getManyOperation } from '../common/recordOperations';
import { productFilters } from './fields';

export const { description, execute } = getManyOperation('product', productFilters);
