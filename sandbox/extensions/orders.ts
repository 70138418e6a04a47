import { nowIso } from '../dates';
import { notFound } from '../errors';
import { containsText, listSorts, listTable, pageOf, type Filter } from '../listing';
import { stringParam, timestampParam } from '../query';
import type { ApiContext, ApiHandler, ApiResult } from '../resources/context';
import { deletedAnswer } from '../resources/deleted';
import { applyChanges, readUpdate } from '../resources/update';
import type { Router } from '../router';
import { ruleSchemas } from '../rules';
import type { Store } from '../store';
import type { Table } from '../table';
import type { CustomFields } from '../types';
import { FieldErrors, readFields, readList, type Schema, type Values } from '../validate';
import type { VariantSettings } from '../variants';

/**
 * The orders extension: sales orders, an endpoint family the API document does not list (an ERP's own module).
 * Served only when the sandbox is started with it (see ./index.ts); it follows every rule of the document's lists
 * and writes (paging in meta, the error envelope, the variants).
 */

export const ORDER_STATUSES = ['open', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;

export interface OrderLine {
	/** The line's position in its order, from 1: the key of GET /orders/{id}/lines (the records have no `id`). */
	line: number;
	sku: string | null;
	description: string;
	quantity: number;
	unit_price: number;
}

export interface Order {
	id: number;
	reference: string;
	customer: string;
	status: string;
	currency: string;
	total: number;
	lines: OrderLine[];
	notes: string | null;
	custom_fields: CustomFields;
	created_at: string;
	updated_at: string;
}

/** The extension's own table in the store (empty unless the sandbox serves it). */
export const orderTable = (store: Store): Table<Order> => store.extensionTable<Order>('orders');

const schemaFor = ruleSchemas('order', {
	reference: { type: 'string', required: true, max: 64 },
	customer: { type: 'string', required: true, max: 200 },
	status: { type: 'string', oneOf: ORDER_STATUSES },
	currency: { type: 'string', format: 'currency' },
	total: { type: 'number', required: true, min: 0, money: true },
	notes: { type: 'string', nullable: true },
	custom_fields: { type: 'custom_fields' },
});

const lineSchema: Schema = {
	sku: { type: 'string', nullable: true, max: 64 },
	description: { type: 'string', required: true, max: 500 },
	quantity: { type: 'number', above: 0 },
	unit_price: { type: 'number', required: true, min: 0, money: true },
};

const sorts = listSorts<Order>({ reference: (o) => o.reference });

function filters(query: URLSearchParams): Array<Filter<Order>> {
	const tests: Array<Filter<Order>> = [];
	const search = stringParam(query, 'search')?.toLowerCase();
	if (search) tests.push((o) => containsText(search, o.reference, o.customer));
	for (const field of ['reference', 'customer', 'status', 'currency'] as const) {
		const value = stringParam(query, field);
		if (value !== undefined) tests.push((o) => o[field] === value);
	}
	const updatedAfter = timestampParam(query, 'updated_after');
	if (updatedAfter !== undefined) tests.push((o) => o.updated_at > updatedAfter);
	return tests;
}

const orderWithReference = (store: Store, reference: string): Order | undefined =>
	orderTable(store).all().find((order) => order.reference === reference);

function findOrder(ctx: ApiContext): Order {
	const order = orderTable(ctx.state.store).get(ctx.id);
	if (!order) throw notFound(`Order ${ctx.id} not found`);
	return order;
}

/** Every field a client writes, absent ones defaulted: a create, or a PUT that replaces the record. */
const writable = (v: Values): Omit<Order, 'id' | 'created_at' | 'updated_at'> => ({
	reference: v.reference as string,
	customer: v.customer as string,
	status: (v.status as string | undefined) ?? 'open',
	currency: (v.currency as string | undefined) ?? 'EUR',
	total: v.total as number,
	lines: (v.lines as OrderLine[] | undefined) ?? [],
	notes: (v.notes as string | undefined) ?? null,
	custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
});

/** The rules beyond the schema, into the same 422: `lines` (a list; null clears it) and a reference no other order has. */
const checkOrder = (ctx: ApiContext) => (values: Values, errors: FieldErrors) => {
	const { lines } = ctx.body;
	if (lines === null) values.lines = [];
	else if (lines !== undefined) {
		values.lines = readList(lines, 'lines', lineSchema, errors).map(
			(v, i): OrderLine => ({
				line: i + 1,
				sku: (v.sku as string | undefined) ?? null,
				description: v.description as string,
				quantity: (v.quantity as number | undefined) ?? 1,
				unit_price: v.unit_price as number,
			}),
		);
	}
	const owner = typeof values.reference === 'string' ? orderWithReference(ctx.state.store, values.reference) : undefined;
	if (owner && owner.id !== ctx.id) errors.add('reference', `is already taken by order ${owner.id}`);
};

const create: ApiHandler = (ctx) => {
	const errors = new FieldErrors();
	const v = readFields(ctx.body, schemaFor(ctx.variant.rules), 'create', errors);
	checkOrder(ctx)(v, errors);
	errors.throwIfAny();
	const now = nowIso();
	const order: Order = { id: orderTable(ctx.state.store).nextId(), ...writable(v), created_at: now, updated_at: now };
	orderTable(ctx.state.store).insert(order);
	return { status: 201, data: order, created: `/orders/${order.id}` };
};

/** PUT as the variant in force has it (merge or replace); PATCH always changes only the fields it sends. */
function update(ctx: ApiContext, put: VariantSettings['put']): ApiResult {
	const order = findOrder(ctx);
	const values = readUpdate({ ...ctx, variant: { ...ctx.variant, put } }, schemaFor(ctx.variant.rules), writable, checkOrder(ctx));
	if (applyChanges(order, values, put).length > 0) {
		order.updated_at = nowIso();
		orderTable(ctx.state.store).touch();
	}
	return { data: order };
}

const remove: ApiHandler = (ctx) => {
	const order = findOrder(ctx);
	orderTable(ctx.state.store).remove(order.id);
	return deletedAnswer(order, ctx.variant);
};

export function orderRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/orders', (ctx) => listTable(orderTable(ctx.state.store), ctx, filters, sorts))
		.on('POST', '/orders', create)
		.on('GET', '/orders/:id', (ctx) => ({ data: findOrder(ctx) }))
		.on('PUT', '/orders/:id', (ctx) => update(ctx, ctx.variant.put))
		.on('PATCH', '/orders/:id', (ctx) => update(ctx, 'merge'))
		.on('DELETE', '/orders/:id', remove)
		.on('GET', '/orders/:id/lines', (ctx) => pageOf(findOrder(ctx).lines, ctx));
}
