import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from './transport/client';
import { paginate } from './transport/paginate';
import { isLater, timeOf, UPDATED_AT_FIELDS } from './recordFields';
import { toNumber } from './values';

/*
 * When a product's stock is low: one rule for the ERP Polling Trigger (Stock Below Threshold) and the ERP Trigger's
 * confirmation of product.low_stock. The document shows no product fields: the total is the quantities of the
 * product's stock records added up, the threshold a number or a product field the user names.
 */

/** A threshold: the same number for every product, or the value of a product field. */
export type Threshold = { kind: 'number'; value: number } | { kind: 'field'; field: string };

export type Stock = { total: number; threshold: number };

/** A stock as a trigger read it: with the newest update time its stock records show, when it read them and they show one. */
export type StockSeen = Stock & { updatedAt?: string };

/** The one rule: low means below the threshold, not at it. */
export const isLowStock = ({ total, threshold }: Stock): boolean => total < threshold;

/** A product's stock as its stock records give it: their quantities added up, and the newest update time they show. */
export type StockLevel = { total: number; updatedAt?: string };

/** GET /products/{id}/stock: the quantities of all warehouses added up, and the latest of the rows' update times. */
export async function stockLevel(client: ErpClient, productId: string, quantityField: string): Promise<StockLevel> {
	let total = 0;
	let updatedAt: string | undefined;
	const doing = { action: `read the stock of product ${productId}`, noun: 'product', id: productId };
	for await (const rows of paginate(client, { path: `/products/${productId}/stock`, itemIndex: 0, doing })) {
		for (const row of rows) {
			const quantity = toNumber(row[quantityField]);
			if (quantity === undefined) {
				const fields = Object.keys(row).join(', ');
				throw new NodeOperationError(
					client.node,
					`Quantity Field: the stock of product ${productId} has no number in "${quantityField}" (its stock records have ${fields}); set Quantity Field to the field holding the quantity`,
					{ failure: { cause: 'configuration-invalid' } },
				);
			}
			total += quantity;
			const at = timeOf(row, UPDATED_AT_FIELDS);
			if (at !== undefined && (updatedAt === undefined || isLater(at, updatedAt))) updatedAt = at;
		}
	}
	return updatedAt === undefined ? { total } : { total, updatedAt };
}

/** A product's threshold: the number given, or the value of the product's own field (`fix` says what to do without one). */
export function thresholdOf(
	client: ErpClient,
	product: IDataObject,
	productId: string,
	threshold: Threshold,
	fix = 'enter the product field holding its threshold, or choose Threshold: A Number',
): number {
	if (threshold.kind === 'number') return threshold.value;
	const value = toNumber(product[threshold.field]);
	if (value === undefined) {
		throw new NodeOperationError(
			client.node,
			`Threshold Field: product ${productId} has no number in "${threshold.field}" (${JSON.stringify(product[threshold.field] ?? null)}); ${fix}`,
			{ failure: { cause: 'configuration-invalid' } },
		);
	}
	return value;
}
