import { nowIso } from '../dates';
import { notFound, validationFailed } from '../errors';
import { containsText, listTable, pageOf, type Filter, type Sorts } from '../listing';
import { booleanParam, stringParam } from '../query';
import type { Router } from '../router';
import { emitIfBecameLow, isLow, stockRows } from '../stock';
import type { CustomFields, Product } from '../types';
import { FieldErrors, readFields, type Schema } from '../validate';
import type { ApiContext, ApiHandler } from './context';
import { applyChanges } from './update';

const schema: Schema = {
	sku: { type: 'string', required: true, format: 'sku' },
	name: { type: 'string', required: true, max: 200 },
	description: { type: 'string', nullable: true },
	unit_price: { type: 'number', min: 0, money: true },
	currency: { type: 'string', format: 'currency' },
	unit: { type: 'string', max: 20 },
	low_stock_threshold: { type: 'number', integer: true, min: 0 },
	active: { type: 'boolean' },
	custom_fields: { type: 'custom_fields' },
};

const sorts: Sorts<Product> = {
	id: null,
	created_at: (p) => p.created_at,
	updated_at: (p) => p.updated_at,
	sku: (p) => p.sku,
};

function filters(query: URLSearchParams): Array<Filter<Product>> {
	const tests: Array<Filter<Product>> = [];
	const search = stringParam(query, 'search')?.toLowerCase();
	if (search) tests.push((p) => containsText(search, p.name, p.sku));
	const sku = stringParam(query, 'sku');
	if (sku !== undefined) tests.push((p) => p.sku === sku);
	const active = booleanParam(query, 'active');
	if (active !== undefined) tests.push((p) => p.active === active);
	const low = booleanParam(query, 'low_stock');
	if (low !== undefined) tests.push((p) => isLow(p) === low);
	return tests;
}

export function findProduct(ctx: ApiContext): Product {
	const product = ctx.state.store.products.get(ctx.id);
	if (!product) throw notFound(`Product ${ctx.id} not found`);
	return product;
}

function checkSkuFree(ctx: ApiContext, sku: unknown, errors: FieldErrors): void {
	const owner = typeof sku === 'string' ? ctx.state.store.productIdForSku(sku) : undefined;
	if (owner !== undefined && owner !== ctx.id) errors.add('sku', `is already taken by product ${owner}`);
}

const create: ApiHandler = (ctx) => {
	const errors = new FieldErrors();
	const v = readFields(ctx.body, schema, 'create', errors);
	checkSkuFree(ctx, v.sku, errors);
	errors.throwIfAny();
	const now = nowIso();
	const product: Product = {
		id: ctx.state.store.products.nextId(),
		sku: v.sku as string,
		name: v.name as string,
		description: (v.description as string | undefined) ?? null,
		unit_price: (v.unit_price as number | undefined) ?? 0,
		currency: (v.currency as string | undefined) ?? 'EUR',
		unit: (v.unit as string | undefined) ?? 'pcs',
		low_stock_threshold: (v.low_stock_threshold as number | undefined) ?? 10,
		active: (v.active as boolean | undefined) ?? true,
		stock_total: 0,
		custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
		created_at: now,
		updated_at: now,
	};
	ctx.state.store.addProduct(product, stockRows([], now));
	return { status: 201, data: product };
};

const update: ApiHandler = (ctx) => {
	const product = findProduct(ctx);
	const errors = new FieldErrors();
	const { sku, ...values } = readFields(ctx.body, schema, 'update', errors);
	checkSkuFree(ctx, sku, errors);
	errors.throwIfAny();
	if (sku === undefined && Object.keys(values).length === 0) throw validationFailed({ body: ['no fields to update'] });
	const wasLow = isLow(product);
	const changed = applyChanges(product, values);
	if (typeof sku === 'string' && sku !== product.sku) {
		ctx.state.store.changeSku(product, sku);
		changed.push('sku');
	}
	if (changed.length > 0) {
		product.updated_at = nowIso();
		ctx.state.store.products.touch();
		emitIfBecameLow(ctx.state, product, wasLow);
	}
	return { data: product };
};

export function productRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/products', (ctx) => listTable(ctx.state.store.products, ctx.query, filters(ctx.query), sorts))
		.on('POST', '/products', create)
		.on('GET', '/products/:id', (ctx) => ({ data: findProduct(ctx) }))
		.on('PUT', '/products/:id', update)
		.on('GET', '/products/:id/stock', (ctx) => pageOf(ctx.state.store.stock.get(findProduct(ctx).id) ?? [], ctx.query));
}
