import { nowIso } from './dates';
import { lowStockData } from './events';
import type { SandboxState } from './state';
import type { Product, StockRow } from './types';

export const WAREHOUSES = [
	{ id: 1, code: 'MAIN', name: 'Main Warehouse' },
	{ id: 2, code: 'NORTH', name: 'North Hub' },
	{ id: 3, code: 'SOUTH', name: 'South Hub' },
] as const;

export function stockRows(quantities: Array<{ quantity: number; reserved: number }>, updatedAt: string): StockRow[] {
	return WAREHOUSES.map((warehouse, i) => ({
		warehouse_id: warehouse.id,
		warehouse_code: warehouse.code,
		warehouse_name: warehouse.name,
		quantity: quantities[i]?.quantity ?? 0,
		reserved: quantities[i]?.reserved ?? 0,
		available: (quantities[i]?.quantity ?? 0) - (quantities[i]?.reserved ?? 0),
		updated_at: updatedAt,
	}));
}

export const isLow = (product: Product): boolean => product.stock_total < product.low_stock_threshold;

/** Emits product.low_stock when a change took the product from at/above its threshold to below it. */
export function emitIfBecameLow(state: SandboxState, product: Product, wasLow: boolean): void {
	if (!wasLow && isLow(product)) state.webhooks.emit('product.low_stock', lowStockData(product));
}

/** Sets one warehouse's stock (warehouse activity); `reserved` defaults to the current one, capped at quantity. */
export function setStock(
	state: SandboxState,
	product: Product,
	warehouseId: number,
	quantity: number,
	reserved?: number,
): StockRow {
	const rows = state.store.stock.get(product.id) ?? [];
	const row = rows.find((r) => r.warehouse_id === warehouseId) as StockRow;
	const wasLow = isLow(product);
	const now = nowIso();
	row.quantity = quantity;
	row.reserved = Math.min(reserved ?? row.reserved, quantity);
	row.available = row.quantity - row.reserved;
	row.updated_at = now;
	product.stock_total = rows.reduce((sum, r) => sum + r.quantity, 0);
	product.updated_at = now;
	state.store.products.touch();
	emitIfBecameLow(state, product, wasLow);
	return row;
}
