import axios, { type AxiosInstance } from 'axios';

import type { EmittedEvent, Delivery, Subscription } from '../../sandbox/webhooks';
import type { FaultSettings, FaultSpec, QueuedFault } from '../../sandbox/faults';
import type { RateLimitConfig } from '../../sandbox/rateLimit';
import type { RequestLogEntry } from '../../sandbox/requestLog';
import type { SeedOptions, SeedResult } from '../../sandbox/seed';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server';
import type { EventName } from '../../sandbox/events';
import type { Contact, Employee, Invoice, PayrollRecord, Product, StockRow } from '../../sandbox/types';

export type FaultsView = FaultSettings & { rateLimit: RateLimitConfig | null; queue: QueuedFault[] };

export interface RecordTypes {
	contacts: Contact;
	invoices: Invoice;
	products: Product;
	employees: Employee;
	stock: StockRow & { product_id: number };
	payroll: PayrollRecord;
}

/** Typed client for the /__sandbox admin routes (see sandbox/README.md), over real HTTP. */
export class SandboxAdmin {
	private http: AxiosInstance;

	constructor(url: string) {
		this.http = axios.create({ baseURL: `${url}/__sandbox` });
	}

	private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object): Promise<T> {
		const response = await this.http.request<{ data: T }>({ method, url: path, data: body });
		return response.data.data;
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
	requests = (since?: number) => this.call<RequestLogEntry[]>('GET', since === undefined ? '/requests' : `/requests?since=${since}`);
	clearRequests = () => this.call<{ cleared: true }>('DELETE', '/requests');
	records = <R extends keyof RecordTypes>(resource: R) => this.call<Array<RecordTypes[R]>>('GET', `/records/${resource}`);
	addWebhook = (subscription: { url: string; secret?: string; events?: EventName[] }) =>
		this.call<Subscription>('POST', '/webhooks', subscription);
	webhooks = () => this.call<Subscription[]>('GET', '/webhooks');
	removeWebhook = (id: number) => this.call<{ id: number; deleted: true }>('DELETE', `/webhooks/${id}`);
	emit = (event: EventName, data?: object) => this.call<EmittedEvent>('POST', '/events', { event, data });
	events = () => this.call<EmittedEvent[]>('GET', '/events');
	deliveries = () => this.call<Delivery[]>('GET', '/deliveries');
	setStock = (stock: { product_id: number; warehouse_id: number; quantity: number; reserved?: number }) =>
		this.call<{ product_id: number; stock_total: number; low_stock_threshold: number; stock: StockRow }>('PUT', '/stock', stock);
	sweep = (today?: string) => this.call<{ overdue: number[] }>('POST', '/sweep', today ? { today } : {});
	/** Answers at once; the server is down for downMs after that (see waitUntilUp). */
	restart = (downMs: number) => this.call<{ restarting: true; downMs: number }>('POST', '/restart', { downMs });

	/** Polls /health until the server answers again (after a restart). */
	async waitUntilUp(timeoutMs = 10_000): Promise<void> {
		await waitFor(() => this.health().then((h) => h.ok, () => false), timeoutMs);
	}
}

export interface TestSandbox extends Sandbox {
	admin: SandboxAdmin;
	/** axios on baseUrl with the full-access token; never throws on an HTTP status. */
	api: AxiosInstance;
}

/**
 * Starts an in-process sandbox on a random port. Test defaults differ from the sandbox's own: no rate limit,
 * no overdue timer, webhook retries after 10, 20, 40 ms. Pass options to change any of them.
 */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
	const sandbox = await startSandbox({ rateLimit: null, overdueSweepMs: 0, webhookRetryDelaysMs: [10, 20, 40], ...options });
	const api = axios.create({
		baseURL: sandbox.baseUrl,
		headers: { Authorization: `Bearer ${sandbox.token}` },
		validateStatus: () => true,
	});
	return Object.assign(sandbox, { admin: new SandboxAdmin(sandbox.url), api });
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
