import { createOperation } from '../common/createOperation';
import { productFields } from './fields';

export const { description, execute } = createOperation('product', productFields, ['sku', 'name'], ['sku', 'name']);
