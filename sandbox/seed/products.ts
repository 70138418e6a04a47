import { roundMoney } from '../formats';
import { stockRows } from '../stock';
import type { Store } from '../store';
import type { Product } from '../types';
import { CATALOG, VARIANTS } from './names';
import { laterThan, spreadTimestamps, type Timeline } from './timeline';

/** Catalog products with stock in the three warehouses; about one in seven is below its threshold. */
export function seedProducts(store: Store, t: Timeline, count: number): void {
	const { rng } = t;
	const created = spreadTimestamps(t, count, 2 * 365);
	for (let i = 0; i < count; i++) {
		const category = rng.pick(CATALOG);
		const id = store.products.nextId();
		let sku = `${category.prefix}-${String(id).padStart(5, '0')}`;
		while (store.productIdForSku(sku) !== undefined) sku += 'X';
		const threshold = rng.pick([5, 10, 10, 20, 25, 50]);
		const low = rng.chance(0.15);
		const quantities = low
			? [0, 0, 0].map(() => rng.int(0, Math.floor((threshold - 1) / 3)))
			: [threshold + rng.int(0, 400), rng.int(0, 150), rng.int(0, 150)];
		const updatedAt = rng.chance(0.5) ? laterThan(t, created[i]) : created[i];
		const stock = stockRows(
			quantities.map((quantity) => ({ quantity, reserved: rng.int(0, Math.floor(quantity / 5)) })),
			updatedAt,
		);
		const [minPrice, maxPrice] = category.price;
		const product: Product = {
			id,
			sku,
			name: rng.chance(0.4) ? `${rng.pick(category.names)}, ${rng.pick(VARIANTS)}` : rng.pick(category.names),
			description: rng.chance(0.7) ? `Stock item of the ${category.prefix} range, sold per ${category.unit}.` : null,
			unit_price: roundMoney(minPrice + rng.next() * (maxPrice - minPrice)),
			currency: 'EUR',
			unit: category.unit,
			low_stock_threshold: threshold,
			active: rng.chance(0.92),
			stock_total: quantities.reduce((sum, q) => sum + q, 0),
			custom_fields: {},
			created_at: created[i],
			updated_at: updatedAt,
		};
		store.addProduct(product, stock);
	}
}
