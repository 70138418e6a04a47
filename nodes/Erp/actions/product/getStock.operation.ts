import { recordListOperation } from '../common/recordOperations';

// One row per warehouse: a single page in practice, so no Limit.
export const { description, execute } = recordListOperation(
	'product',
	'getStock',
	'stock',
	'The product whose stock to get',
	false,
);
