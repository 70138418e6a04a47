import { paginate } from '../../../shared/transport/paginate';
import type { KeyLookup } from '../shared/keyed';

/** GET /products?sku=…: how Create or Update finds a product, and how a create whose answer was lost is settled. */
export const productBySku: KeyLookup = {
	noun: 'product',
	key: 'sku',
	pages: (client, sku, itemIndex) =>
		paginate(client, { path: '/products', query: { sku }, itemIndex, doing: { action: 'look up products by SKU', noun: 'product' } }),
};

