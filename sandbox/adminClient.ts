import type { EventName } from './events';
import type { Order } from './extensions/orders';
import type { FaultSettings, FaultSpec, QueuedFault } from './faults';
import type { RateLimitConfig } from './rateLimit';
import type { RequestLogEntry } from './requestLog';
import type { SeedOptions, SeedResult } from './seed';
import type { Contact, Employee, Invoice, PayrollRecord, Product, StockRow } from './types';
import type { VariantChoice, VariantName, VariantSettings } from './variants';
import type { DeliveredEvent, Delivery, EmittedEvent, ForgeRequest, Subscription } from './webhooks';

export type FaultsView = FaultSettings & { rateLimit: RateLimitConfig | null; queue: QueuedFault[] };

export interface RecordTypes {
	contacts: Contact;
	invoices: Invoice;
	products: Product;
	employees: Employee;
	stock: StockRow & { product_id: number };
	payroll: PayrollRecord;
	/** Only from a sandbox serving the orders extension. */
	orders: Order;
}

type RecordResource = 'contacts' | 'invoices' | 'products' | 'employees' | 'orders';

/**
 * The sandbox's admin routes (/__sandbox, see README.md) over HTTP: its own view of its data, requests and
 * deliveries. Used by the tests, the end-to-end suite and `npm start`.
 */
export class SandboxAdmin {
	constructor(readonly url: string) {}

	private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object): Promise<T> {
		const response = await fetch(`${this.url}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox answered ${response.status} to ${method} /__sandbox${path}: ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	health = () => this.call<{ ok: boolean }>('GET', '/health');
	reset = () => this.call<{ reset: true }>('POST', '/reset');
	seed = (options: SeedOptions) => this.call<SeedResult>('POST', '/seed', options);
	faults = () => this.call<FaultsView>('GET', '/faults');
	setFaults = (faults: Partial<FaultSettings> & { rateLimit?: RateLimitConfig | null }) => this.call<FaultsView>('PUT', '/faults', faults);
	clearFaults = () => this.call<FaultsView>('DELETE', '/faults');
	queueFault = (entry: { match?: { method?: string; path?: string }; fault: FaultSpec; times?: number }) =>
		this.call<QueuedFault>('POST', '/faults/queue', entry);
	clearFaultQueue = () => this.call<FaultsView>('DELETE', '/faults/queue');
	/** API requests logged after `since` (a sequence number; none: all kept). */
	requests = (since?: number) => this.call<RequestLogEntry[]>('GET', since === undefined ? '/requests' : `/requests?since=${since}`);
	clearRequests = () => this.call<{ cleared: true }>('DELETE', '/requests');
	records = <R extends keyof RecordTypes>(resource: R) => this.call<Array<RecordTypes[R]>>('GET', `/records/${resource}`);
	addWebhook = (subscription: { url: string; secret?: string; events?: EventName[] }) =>
		this.call<Subscription>('POST', '/webhooks', subscription);
	webhooks = () => this.call<Subscription[]>('GET', '/webhooks');
	removeWebhook = (id: number) => this.call<{ id: number; deleted: true }>('DELETE', `/webhooks/${id}`);
	/** One of the six events; another name (e.g. invoice.created) only with the future-events variant. */
	emit = (event: DeliveredEvent, data?: object) => this.call<EmittedEvent>('POST', '/events', { event, data });
	/** Every emitted event, newest last (also those caused by API calls). */
	events = () => this.call<EmittedEvent[]>('GET', '/events');
	/** Every delivery kept, oldest first; `done: false`: only those still being attempted. */
	deliveries = (filter: { done?: boolean } = {}) =>
		this.call<Delivery[]>('GET', filter.done === undefined ? '/deliveries' : `/deliveries?done=${filter.done}`);
	/**
	 * Sends a delivery no event caused (any event, data or body, id, headers; unsigned unless `sign`) through the
	 * real delivery path to every subscription wanting the event (or `subscriptionId`): the deliveries started.
	 */
	forge = (request: ForgeRequest) => this.call<Delivery[]>('POST', '/deliveries', request);
	setStock = (stock: { product_id: number; warehouse_id: number; quantity: number; reserved?: number }) =>
		this.call<{ product_id: number; stock_total: number; low_stock_threshold: number; stock: StockRow }>('PUT', '/stock', stock);
	/** Moves every `sent` invoice due before `today` to `overdue` (emitting invoice.overdue). */
	sweep = (today?: string) => this.call<{ overdue: number[] }>('POST', '/sweep', today ? { today } : {});
	/** The variants in force and the settings they make. */
	variant = () => this.call<VariantChoice>('GET', '/variant');
	/**
	 * Replaces the variant in force: the named variants combined (422 when two set one setting differently),
	 * then `settings` on top. `setVariants([])` is the default behaviour.
	 */
	setVariants = (variants: VariantName[], settings?: Partial<VariantSettings>) =>
		this.call<VariantChoice>('PUT', '/variant', settings ? { variants, settings } : { variants });
	/** Back to the variants the sandbox started with (none: the default). */
	resetVariants = () => this.call<VariantChoice>('DELETE', '/variant');
	/** Every named variant: what it models and its settings. */
	variants = () =>
		this.call<Array<{ name: VariantName; models: string; settings: Partial<VariantSettings> }>>('GET', '/variants');
	/** Answers at once; the server is down for downMs after that (see waitUntilUp). */
	restart = (downMs: number) => this.call<{ restarting: true; downMs: number }>('POST', '/restart', { downMs });

	async record<R extends RecordResource>(resource: R, id: number): Promise<RecordTypes[R] | undefined> {
		return (await this.records(resource)).find((record) => record.id === id);
	}

	/** The sequence number of the newest logged request, to look at only what comes after it. */
	async lastRequestSeq(): Promise<number> {
		const all = await this.requests();
		return all.length ? all[all.length - 1].seq : 0;
	}

	/** Polls /health until the server answers again (after a restart). */
	async waitUntilUp(timeoutMs = 10_000): Promise<void> {
		await waitFor(() => this.health().then((h) => h.ok, () => false), timeoutMs);
	}
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Resolves with the first truthy value of `probe`, polling every 10 ms; rejects after timeoutMs. */
export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 5000): Promise<Truthy<T>> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value) return value as Truthy<T>;
		if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
