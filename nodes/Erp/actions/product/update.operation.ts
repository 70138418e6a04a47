import { updateOperation } from '../common/recordOperations';
import { productFields } from './fields';

export const { description, execute } = updateOperation('product', productFields);
