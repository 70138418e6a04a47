import { nowIso } from '../dates';
import { notFound } from '../errors';
import { containsText, listSorts, listTable, pageOf, type Filter } from '../listing';
import { booleanParam, stringParam } from '../query';
import type { Router } from '../router';
import { ruleSchemas } from '../rules';
import { emitIfBecameLow, isLow, stockRows } from '../stock';
import type { CustomFields, Product } from '../types';
import { FieldErrors, readFields, type Values } from '../validate';
import type { ApiContext, ApiHandler } from './context';
import { applyChanges, readUpdate } from './update';

const schemaFor = ruleSchemas('product', {
	sku: { type: 'string', required: true, format: 'sku' },
	name: { type: 'string', required: true, max: 200 },
	description: { type: 'string', nullable: true },
	unit_price: { type: 'number', min: 0, money: true },
	currency: { type: 'string', format: 'currency' },
	unit: { type: 'string', max: 20 },
	low_stock_threshold: { type: 'number', integer: true, min: 0 },
	active: { type: 'boolean' },
	custom_fields: { type: 'custom_fields' },
});

const sorts = listSorts<Product>({ sku: (p) => p.sku });

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

/** A product as the variant in force shows it: without stock_total when its records carry no stock. */
function shown(product: Product, ctx: ApiContext): Partial<Product> {
	if (ctx.variant.productStock === 'stock_total') return product;
	const copy: Partial<Product> = { ...product };
	delete copy.stock_total;
	return copy;
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

/** Every field a client writes, absent ones defaulted: a create, or a PUT that replaces the record. */
const writable = (v: Values): Omit<Product, 'id' | 'stock_total' | 'created_at' | 'updated_at'> => ({
	sku: v.sku as string,
	name: v.name as string,
	description: (v.description as string | undefined) ?? null,
	unit_price: (v.unit_price as number | undefined) ?? 0,
	currency: (v.currency as string | undefined) ?? 'EUR',
	unit: (v.unit as string | undefined) ?? 'pcs',
	low_stock_threshold: (v.low_stock_threshold as number | undefined) ?? 10,
	active: (v.active as boolean | undefined) ?? true,
	custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
});

const create: ApiHandler = (ctx) => {
	const errors = new FieldErrors();
	const v = readFields(ctx.body, schemaFor(ctx.variant.rules), 'create', errors);
	checkSkuFree(ctx, v.sku, errors);
	errors.throwIfAny();
	const now = nowIso();
	const product: Product = { id: ctx.state.store.products.nextId(), ...writable(v), stock_total: 0, created_at: now, updated_at: now };
	ctx.state.store.addProduct(product, stockRows([], now));
	return { status: 201, data: shown(product, ctx), created: `/products/${product.id}` };
};

const update: ApiHandler = (ctx) => {
	const product = findProduct(ctx);
	const { sku, ...values } = readUpdate(ctx, schemaFor(ctx.variant.rules), writable, (v, errors) => checkSkuFree(ctx, v.sku, errors));
	const wasLow = isLow(product);
	const changed = applyChanges(product, values, ctx.variant.put);
	if (typeof sku === 'string' && sku !== product.sku) {
		ctx.state.store.changeSku(product, sku);
		changed.push('sku');
	}
	if (changed.length > 0) {
		product.updated_at = nowIso();
		ctx.state.store.products.touch();
		emitIfBecameLow(ctx.state, product, wasLow);
	}
	return { data: shown(product, ctx) };
};

export function productRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/products', (ctx) => {
			const list = listTable(ctx.state.store.products, ctx, filters, sorts);
			return { ...list, data: list.data.map((product) => shown(product, ctx)) };
		})
		.on('POST', '/products', create)
		.on('GET', '/products/:id', (ctx) => ({ data: shown(findProduct(ctx), ctx) }))
		.on('PUT', '/products/:id', update)
		.on('GET', '/products/:id/stock', (ctx) => pageOf(ctx.state.store.stock.get(findProduct(ctx).id) ?? [], ctx));
}
