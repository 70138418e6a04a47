import { ApiError, validationFailed } from '../errors';
import type { ExtensionName } from '../extensions/names';
import { seedOrders } from '../extensions/seedOrders';
import type { Store } from '../store';
import { seedContacts } from './contacts';
import { seedEmployees } from './employees';
import { seedInvoices } from './invoices';
import { seedProducts } from './products';
import { Random } from './random';

export interface SeedOptions {
	contacts?: number;
	invoices?: number;
	products?: number;
	employees?: number;
	/** Only with the orders extension. */
	orders?: number;
	/** PRNG seed, default 1: the same seed, counts and day give the same records. */
	seed?: number;
	/** The day the data is built around (YYYY-MM-DD), default today (UTC). */
	today?: string;
}

export interface SeedResult {
	contacts: number;
	invoices: number;
	products: number;
	employees: number;
	/** Present when the sandbox serves the orders extension. */
	orders?: number;
}

/**
 * Adds realistic records to the store (ids continue after existing ones; no events are emitted). Each
 * resource draws from its own random stream, so adding products does not change the seeded contacts.
 * Invoices need contacts: seed them together or before. Orders need the orders extension among `extensions`.
 */
export function seedStore(store: Store, options: SeedOptions, today: string, extensions: readonly ExtensionName[] = []): SeedResult {
	if (options.orders !== undefined && !extensions.includes('orders')) {
		throw validationFailed({ orders: ['is an extension this sandbox does not serve: start it with extensions ["orders"]'] });
	}
	const seed = options.seed ?? 1;
	const day = options.today ?? today;
	const timeline = (salt: number) => ({ today: day, rng: new Random(seed * 7919 + salt) });
	const result: SeedResult = {
		contacts: options.contacts ?? 0,
		invoices: options.invoices ?? 0,
		products: options.products ?? 0,
		employees: options.employees ?? 0,
	};
	seedContacts(store, timeline(1), result.contacts);
	seedProducts(store, timeline(2), result.products);
	seedEmployees(store, timeline(3), result.employees);
	if (result.invoices > 0 && store.contacts.size === 0) {
		throw new ApiError(422, 'Seeding invoices needs contacts', { invoices: ['needs contacts: seed contacts too'] });
	}
	seedInvoices(store, timeline(4), result.invoices);
	if (extensions.includes('orders')) {
		result.orders = options.orders ?? 0;
		seedOrders(store, timeline(5), result.orders);
	}
	return result;
}
