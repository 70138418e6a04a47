import { NodeOperationError } from 'n8n-workflow';

import { toNumber } from '../shared/values';
import { type StockSeen, stockLevel, thresholdOf } from '../shared/lowStock';
import { forEachConcurrently } from '../shared/concurrently';
import type { ErpClient } from '../shared/transport/client';
import type { PollBudget } from './budget';
import type { WatchConfig } from './config';
import type { Records } from './scan';
import type { PollState } from './state';
import { fieldTotals, findStockField, sameTotal, STOCK_FIELD_SAMPLE } from './stockField';

/** How this poll learnt the stock: the totals it knows, and what the memory keeps for the next poll. */
export interface StockReading {
	/** Totals and thresholds of the products whose stock this poll knows; the others keep their remembered token. */
	stock: Map<string, StockSeen>;
	/** The product field found to hold the total stock (not one the user named). */
	field?: string;
	/** The last product read one by one: the next poll goes on after it. */
	cursor?: string;
}

/** The products' IDs in ascending order, starting after `cursor` and wrapping round. */
function rotation(products: Records, cursor: string | undefined): string[] {
	const ids = [...products.keys()].sort((a, b) => Number(a) - Number(b));
	const start = cursor === undefined ? 0 : ids.findIndex((id) => Number(id) > Number(cursor));
	return start <= 0 ? ids : [...ids.slice(start), ...ids.slice(0, start)];
}

/** A named Stock Field must hold a number on every product. */
function namedFieldTotals(client: ErpClient, products: Records, field: string): Map<string, number> {
	const totals = fieldTotals(products, field);
	if (totals) return totals;
	const [id, product] = [...products].find(([, record]) => toNumber(record[field]) === undefined) ?? [];
	throw new NodeOperationError(
		client.node,
		`Stock Field: product ${id} has no number in "${field}" (${JSON.stringify(product?.[field] ?? null)}); enter the product field holding its total stock, or leave Stock Field empty to let the node find it or read each product's stock`,
		{ failure: { cause: 'configuration-invalid' } },
	);
}

/**
 * The stock of each product in Stock Below Threshold, read in the cheapest way the ERP allows:
 * - from a product field of the list already read: the one the user named, or one the node found (re-checked
 *   against one product's stock read one by one each poll, and dropped when they differ);
 * - else one request per product, at most Stock Reads per Poll a poll (the first look: as many as its time allows),
 *   in turn by ID from where the last poll stopped, so every product is read at least every ceil(products / K) polls.
 * No new read starts once the poll's budget is nearly used; the products not read keep their remembered token.
 */
export async function readStock(client: ErpClient, config: WatchConfig, products: Records, previous: PollState | undefined, budget: PollBudget): Promise<StockReading> {
	const withThresholds = (totals: Map<string, number>, updated = new Map<string, string>()) =>
		new Map(
			[...totals].map(([id, total]): [string, StockSeen] => {
				const updatedAt = updated.get(id);
				return [id, { total, threshold: thresholdOf(client, products.get(id) ?? {}, id, config.threshold), ...(updatedAt === undefined ? {} : { updatedAt }) }];
			}),
		);
	if (config.stockField) return { stock: withThresholds(namedFieldTotals(client, products, config.stockField)), cursor: previous?.stockCursor };

	const order = rotation(products, previous?.stockCursor);
	const read = new Map<string, number>();
	const updated = new Map<string, string>();
	const readEach = async (ids: string[]) =>
		await forEachConcurrently(ids.length, config.concurrency, async (i) => {
			if (budget.nearlyUsed()) return;
			const level = await stockLevel(client, ids[i], config.quantityField);
			read.set(ids[i], level.total);
			if (level.updatedAt !== undefined) updated.set(ids[i], level.updatedAt);
		});
	// Reads start in rotation order and stop starting together, so the products read are the first ones of it.
	const cursor = () => order.filter((id) => read.has(id)).pop() ?? previous?.stockCursor;

	const remembered = previous?.stockField;
	const listed = remembered === undefined ? undefined : fieldTotals(products, remembered);
	if (remembered && listed) {
		await readEach(order.slice(0, 1));
		const agrees = [...read].every(([id, total]) => sameTotal(total, listed.get(id)));
		if (agrees) return { stock: withThresholds(listed), field: remembered, cursor: cursor() };
	}

	const batch = order.slice(0, previous === undefined ? order.length : config.stockReadsPerPoll);
	await readEach(batch.slice(read.size, STOCK_FIELD_SAMPLE));
	const found = findStockField(products, read);
	if (found) return { stock: withThresholds(found.totals), field: found.field, cursor: cursor() };
	await readEach(batch.slice(STOCK_FIELD_SAMPLE));
	return { stock: withThresholds(read, updated), cursor: cursor() };
}
