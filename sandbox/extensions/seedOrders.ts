import { roundMoney } from '../formats';
import { CATALOG } from '../seed/names';
import { company, country } from '../seed/people';
import { laterThan, spreadTimestamps, type Timeline } from '../seed/timeline';
import type { Store } from '../store';
import { orderTable, type Order, type OrderLine } from './orders';

/** Orders of the last year from companies, for catalog items, in every state; ids follow creation time. */
export function seedOrders(store: Store, t: Timeline, count: number): void {
	const { rng } = t;
	const orders = orderTable(store);
	const created = spreadTimestamps(t, count, 365);
	const taken = new Set(orders.all().map((order) => order.reference));
	for (let i = 0; i < count; i++) {
		const id = orders.nextId();
		let reference = `SO-${String(id).padStart(6, '0')}`;
		while (taken.has(reference)) reference += 'X';
		taken.add(reference);
		const lines = Array.from({ length: rng.int(1, 4) }, (_, n): OrderLine => {
			const category = rng.pick(CATALOG);
			const [minPrice, maxPrice] = category.price;
			return {
				line: n + 1,
				sku: `${category.prefix}-${String(rng.int(1, 999)).padStart(5, '0')}`,
				description: rng.pick(category.names),
				quantity: rng.int(1, 20),
				unit_price: roundMoney(minPrice + rng.next() * (maxPrice - minPrice)),
			};
		});
		const status = rng.weighted([['open', 20], ['confirmed', 25], ['shipped', 25], ['delivered', 25], ['cancelled', 5]] as const);
		const order: Order = {
			id,
			reference,
			customer: company(rng, country(rng)).name,
			status,
			currency: 'EUR',
			total: roundMoney(lines.reduce((sum, line) => sum + line.quantity * line.unit_price, 0)),
			lines,
			notes: rng.chance(0.15) ? 'Deliver to the loading dock.' : null,
			custom_fields: rng.chance(0.3) ? { customer_po: rng.digits('PO-2#####') } : {},
			created_at: created[i],
			updated_at: status === 'open' ? created[i] : laterThan(t, created[i]),
		};
		orders.insert(order);
	}
}
