import type { IncomingMessage, ServerResponse } from 'node:http';

import type { AdminHandler, Lifecycle } from './adminHandler';
import { bodyObject, parseBody, sendJson } from './body';
import { todayUtc } from './dates';
import { ApiError, errorBody, notFound, validationFailed } from './errors';
import { EVENT_NAMES, isEventName, type EventName } from './events';
import type { FaultBody, FaultChanges, FaultSettings, FaultSpec, QueuedFault } from './faults';
import { sweepOverdue } from './overdue';
import type { RateLimitConfig } from './rateLimit';
import { Router } from './router';
import { sampleEventData } from './sampleEvents';
import { seedStore, type SeedOptions } from './seed';
import type { SandboxState } from './state';
import { setStock, WAREHOUSES } from './stock';
import type { ForgeRequest } from './webhooks';
import type { JsonObject } from './types';
import { FieldErrors, isPlainObject, readFields, type Schema } from './validate';
import { deleteVariant, getVariant, listVariants, putVariant } from './variantAdmin';

const MAX_SEED = 200_000;
const count = { type: 'number', integer: true, min: 0, max: MAX_SEED } as const;
const seedSchema: Schema = {
	contacts: count,
	invoices: count,
	products: count,
	employees: count,
	orders: count,
	seed: { type: 'number', integer: true, min: 0 },
	today: { type: 'string', format: 'date' },
};

const rate = { type: 'number', min: 0, max: 1 } as const;
const faultSchema: Schema = {
	errorRate: rate,
	errorStatus: { type: 'number', integer: true, min: 400, max: 599 },
	errorBody: { type: 'string', oneOf: ['json', 'html', 'empty'] },
	faultTiming: { type: 'string', nullable: true, oneOf: ['before', 'after'] },
	dropRate: rate,
	latencyMs: { type: 'number', integer: true, min: 0 },
	nonJsonRate: rate,
	visibleAfterMs: { type: 'number', integer: true, min: 0, max: 600_000 },
	seed: { type: 'number', integer: true, min: 0, max: 2 ** 32 - 1, nullable: true },
};

const rateLimitSchema: Schema = {
	limit: { type: 'number', required: true, integer: true, min: 1 },
	windowMs: { type: 'number', required: true, integer: true, min: 1 },
};

const matchSchema: Schema = {
	method: { type: 'string', oneOf: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
	path: { type: 'string' },
};

const queuedFaultSchema: Schema = {
	kind: { type: 'string', required: true, oneOf: ['status', 'drop', 'latency', 'html', 'rateLimit'] },
	status: { type: 'number', integer: true, min: 100, max: 599 },
	delayMs: { type: 'number', integer: true, min: 0 },
	afterCommit: { type: 'boolean' },
};

const webhookSchema: Schema = {
	url: { type: 'string', required: true, format: 'url' },
	secret: { type: 'string', nullable: true },
};

const stockSchema: Schema = {
	product_id: { type: 'number', required: true, integer: true, min: 1 },
	warehouse_id: { type: 'number', required: true, integer: true, min: 1, max: WAREHOUSES.length },
	quantity: { type: 'number', required: true, integer: true, min: 0 },
	reserved: { type: 'number', integer: true, min: 0 },
};

function read(body: JsonObject, schema: Schema, prefix = ''): Record<string, unknown> {
	const errors = new FieldErrors();
	const values = readFields(body, schema, 'create', errors, prefix);
	errors.throwIfAny();
	return values;
}

function faultsView(state: SandboxState): FaultSettings & { rateLimit: RateLimitConfig | null; queue: QueuedFault[] } {
	return { rateLimit: state.limiter.current, ...state.faults.settings, queue: state.faults.queued() };
}

const seed: AdminHandler = ({ state, body }) =>
	seedStore(state.store, read(body, seedSchema) as SeedOptions, todayUtc(), state.config.extensions);

const putFaults: AdminHandler = ({ state, body }) => {
	const values = read(body, faultSchema) as FaultChanges;
	if ('rateLimit' in body) {
		if (body.rateLimit === null) state.limiter.configure(null);
		else if (isPlainObject(body.rateLimit)) state.limiter.configure(read(body.rateLimit, rateLimitSchema, 'rateLimit.') as unknown as RateLimitConfig);
		else throw validationFailed({ rateLimit: ['must be {limit, windowMs} or null'] });
	}
	state.faults.update(values);
	return faultsView(state);
};

const queueFault: AdminHandler = ({ state, body }) => {
	if (!isPlainObject(body.fault)) throw validationFailed({ fault: ['is required: {kind, status?, body?, retryAfter?, delayMs?, afterCommit?}'] });
	const match = isPlainObject(body.match) ? (read(body.match, matchSchema, 'match.') as QueuedFault['match']) : {};
	if (match.path?.startsWith('/api/v1')) match.path = match.path.slice('/api/v1'.length) || '/';
	const fault = read(body.fault, queuedFaultSchema, 'fault.') as unknown as FaultSpec;
	const { body: faultBody, retryAfter, headers } = body.fault;
	if (faultBody !== undefined) {
		const keyword = ['json', 'html', 'empty', 'text'].includes(faultBody as string);
		if (!keyword && (typeof faultBody !== 'object' || faultBody === null)) {
			throw validationFailed({ 'fault.body': ['must be json, html, empty, text or a JSON object/array to send'] });
		}
		fault.body = faultBody as FaultBody;
	}
	if (retryAfter !== undefined) {
		if (retryAfter !== null && typeof retryAfter !== 'number' && typeof retryAfter !== 'string') {
			throw validationFailed({ 'fault.retryAfter': ['must be seconds, an HTTP date or null'] });
		}
		fault.retryAfter = retryAfter;
	}
	if (headers !== undefined) fault.headers = readHeaders(headers, 'fault.headers');
	const times = body.times ?? 1;
	if (typeof times !== 'number' || !Number.isInteger(times) || times < 1) throw validationFailed({ times: ['must be an integer of at least 1'] });
	return state.faults.enqueue(match, fault, times);
};

/** Extra headers (a fault's answer, a forged delivery): names to strings (numbers are written as they are). */
function readHeaders(raw: unknown, field: string): Record<string, string> {
	const valid =
		isPlainObject(raw) &&
		Object.entries(raw).every(([name, value]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && ['string', 'number'].includes(typeof value));
	if (!valid) throw validationFailed({ [field]: ['must be an object of header names to strings or numbers'] });
	return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, String(value)]));
}

const addWebhook: AdminHandler = ({ state, body }) => {
	const values = read(body, webhookSchema);
	let events: EventName[] | null = null;
	if (body.events !== undefined && body.events !== null) {
		if (!Array.isArray(body.events) || !body.events.every(isEventName)) {
			throw validationFailed({ events: [`must be a list of: ${EVENT_NAMES.join(', ')}`] });
		}
		events = body.events;
	}
	return state.webhooks.subscribe(values.url as string, (values.secret as string | null | undefined) ?? null, events);
};

/** An event name a later API version may add (`invoice.created`): accepted with the future-events variant. */
const FUTURE_EVENT = /^[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+$/;

const emit: AdminHandler = ({ state, body }) => {
	const { event, data } = body;
	if (data !== undefined && !isPlainObject(data)) throw validationFailed({ data: ['must be an object'] });
	if (isEventName(event)) return state.webhooks.emit(event, data ?? sampleEventData(event, state.store));
	if (state.variant.settings.futureEvents && typeof event === 'string' && FUTURE_EVENT.test(event)) {
		return state.webhooks.emit(event, data ?? {});
	}
	const future = state.variant.settings.futureEvents ? ', or a name like invoice.created' : ' (another name needs the future-events variant)';
	throw validationFailed({ event: [`must be one of: ${EVENT_NAMES.join(', ')}${future}`] });
};

const forgeSchema: Schema = {
	event: { type: 'string', required: true },
	deliveryId: { type: 'string' },
	subscriptionId: { type: 'number', integer: true, min: 1 },
};

/** A delivery no event caused: any event name, data or whole body, id, headers, signed or not. */
const forge: AdminHandler = ({ state, body }) => {
	const values = read(body, forgeSchema) as Pick<ForgeRequest, 'event' | 'deliveryId' | 'subscriptionId'>;
	const request: ForgeRequest = { ...values };
	if (body.data !== undefined) request.data = body.data;
	if (body.body !== undefined) request.body = body.body;
	if (body.headers !== undefined) request.headers = readHeaders(body.headers, 'headers');
	if (body.sign !== undefined) {
		if (typeof body.sign !== 'boolean' && (typeof body.sign !== 'string' || body.sign === '')) {
			throw validationFailed({ sign: ["must be true (the subscription's secret), false, or a secret to sign with"] });
		}
		request.sign = body.sign;
	}
	if (request.subscriptionId !== undefined && !state.webhooks.list().some((s) => s.id === request.subscriptionId)) {
		throw notFound(`Webhook ${request.subscriptionId} not found`);
	}
	return state.webhooks.forge(request);
};

const putStock: AdminHandler = ({ state, body }) => {
	const v = read(body, stockSchema);
	const product = state.store.products.get(v.product_id as number);
	if (!product) throw notFound(`Product ${String(v.product_id)} not found`);
	const target = { resource: 'products' as const, id: product.id };
	const row = state.trackWrite([target], () =>
		setStock(state, product, v.warehouse_id as number, v.quantity as number, v.reserved as number | undefined),
	);
	return { product_id: product.id, stock_total: product.stock_total, low_stock_threshold: product.low_stock_threshold, stock: row };
};

const sweep: AdminHandler = ({ state, body }) => {
	const { today } = read(body, { today: { type: 'string', format: 'date' } });
	return { overdue: sweepOverdue(state, (today as string | undefined) ?? todayUtc()) };
};

const records: AdminHandler = ({ state, params: { resource } }) => {
	const { store } = state;
	const served = ['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll', ...state.config.extensions];
	if (served.includes(resource)) {
		switch (resource) {
			case 'contacts':
			case 'invoices':
			case 'products':
			case 'employees':
				return store[resource].all();
			case 'stock':
				return [...store.stock].flatMap(([productId, rows]) => rows.map((row) => ({ product_id: productId, ...row })));
			case 'payroll':
				return [...store.payroll.values()].flat();
			default:
				return store.extensionTable(resource).all();
		}
	}
	throw notFound(`Unknown resource ${resource}: one of ${served.join(', ')}`);
};

const restart: AdminHandler = ({ body, lifecycle, res }) => {
	const { downMs } = read(body, { downMs: { type: 'number', integer: true, min: 0, max: 600_000 } });
	const down = (downMs as number | undefined) ?? 1000;
	lifecycle.restart(down, res);
	return { restarting: true, downMs: down };
};

function adminRouter(): Router<AdminHandler> {
	return new Router<AdminHandler>()
		.on('GET', '/health', () => ({ ok: true }))
		.on('POST', '/reset', ({ state }) => {
			state.reset();
			return { reset: true };
		})
		.on('POST', '/seed', seed)
		.on('GET', '/faults', ({ state }) => faultsView(state))
		.on('PUT', '/faults', putFaults)
		.on('DELETE', '/faults', ({ state }) => {
			state.clearFaults();
			return faultsView(state);
		})
		.on('POST', '/faults/queue', queueFault)
		.on('DELETE', '/faults/queue', ({ state }) => {
			state.faults.clearQueue();
			return faultsView(state);
		})
		.on('GET', '/requests', ({ state, query }) => state.log.since(Number(query.get('since') ?? 0) || 0))
		.on('DELETE', '/requests', ({ state }) => {
			state.log.clear();
			return { cleared: true };
		})
		.on('GET', '/webhooks', ({ state }) => state.webhooks.list())
		.on('POST', '/webhooks', addWebhook)
		.on('DELETE', '/webhooks/:id', ({ state, params }) => {
			if (!state.webhooks.unsubscribe(Number(params.id))) throw notFound(`Webhook ${params.id} not found`);
			return { id: Number(params.id), deleted: true };
		})
		.on('GET', '/events', ({ state }) => state.webhooks.events())
		.on('POST', '/events', emit)
		.on('GET', '/deliveries', ({ state, query }) => {
			const done = query.get('done');
			if (done !== null && done !== 'true' && done !== 'false') throw validationFailed({ done: ['must be true or false'] });
			const all = state.webhooks.deliveries();
			return done === null ? all : all.filter((d) => d.done === (done === 'true'));
		})
		.on('POST', '/deliveries', forge)
		.on('PUT', '/stock', putStock)
		.on('POST', '/sweep', sweep)
		.on('GET', '/records/:resource', records)
		.on('GET', '/variant', getVariant)
		.on('PUT', '/variant', putVariant)
		.on('DELETE', '/variant', deleteVariant)
		.on('GET', '/variants', listVariants)
		.on('POST', '/restart', restart);
}

/** The /__sandbox routes: no auth, never rate-limited, faulted or logged. Answers `{success: true, data}`. */
export function createAdmin(state: SandboxState, lifecycle: Lifecycle) {
	const router = adminRouter();
	return function serveAdmin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, raw: string): void {
		const method = req.method ?? 'GET';
		try {
			const match = router.match(method, path);
			if (!match) throw notFound(`No sandbox route ${method} /__sandbox${path}`);
			const body = method === 'GET' || method === 'DELETE' ? {} : bodyObject(parseBody(raw));
			const data = match.handler({ state, params: match.params, query, body, lifecycle, res });
			sendJson(res, 200, { success: true, data }, method === 'POST' && path === '/restart' ? { Connection: 'close' } : {});
		} catch (error) {
			if (error instanceof ApiError) sendJson(res, error.status, error.body);
			else {
				console.error('[sandbox] admin error', error);
				sendJson(res, 500, errorBody(500, error instanceof Error ? error.message : 'Internal error'));
			}
		}
	};
}
