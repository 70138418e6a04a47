import { getOneOperation } from '../common/recordOperations';

export const { description, execute } = getOneOperation('invoice');
