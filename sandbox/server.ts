import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createAdmin } from './admin';
import { createApi } from './api';
import { readBody, sendJson } from './body';
import { todayUtc } from './dates';
import { ApiError, errorBody } from './errors';
import { resolveExtensions, type ExtensionName } from './extensions/names';
import { sweepOverdue } from './overdue';
import type { RateLimitConfig } from './rateLimit';
import { seedStore, type SeedOptions, type SeedResult } from './seed';
import { SandboxState, type SandboxConfig } from './state';
import { resolveVariants, type VariantName } from './variants';

export interface SandboxOptions {
	port?: number;
	host?: string;
	token?: string;
	readOnlyToken?: string;
	/** Overdue sweep period; 0 turns the timer off (the admin route still sweeps). Default 1000. */
	overdueSweepMs?: number;
	/** Delays before each webhook retry; default [1000, 2000, 4000]. */
	webhookRetryDelaysMs?: number[];
	/** Time a webhook receiver has to answer one attempt; default 5000. */
	webhookTimeoutMs?: number;
	/** Default 600 requests per 60 s; null: no rate limit. */
	rateLimit?: RateLimitConfig | null;
	seed?: SeedOptions;
	/** Variants in force from the start (and again after a reset); default none. See variants.ts. */
	variants?: VariantName[];
	/** Endpoints beyond the API document to serve, as an ERP's extension adds them (`orders`); default none. */
	extensions?: ExtensionName[];
}

export interface Sandbox {
	/** http://HOST:PORT */
	url: string;
	/** url + '/api/v1' */
	baseUrl: string;
	token: string;
	readOnlyToken: string;
	port: number;
	/** Direct access to the store, faults, logs and webhooks. */
	state: SandboxState;
	seed(options: SeedOptions): SeedResult;
	/** Like POST /__sandbox/reset. */
	reset(): void;
	/** Like POST /__sandbox/restart, resolved once the server listens again. */
	restart(downMs: number): Promise<void>;
	/** Stops timers, pending webhook deliveries and every connection. */
	close(): Promise<void>;
}

export const DEFAULT_TOKEN = 'sandbox-token';
export const DEFAULT_READONLY_TOKEN = 'sandbox-readonly-token';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const config: SandboxConfig = {
		token: options.token ?? DEFAULT_TOKEN,
		readOnlyToken: options.readOnlyToken ?? DEFAULT_READONLY_TOKEN,
		overdueSweepMs: options.overdueSweepMs ?? 1000,
		webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [1000, 2000, 4000],
		webhookTimeoutMs: options.webhookTimeoutMs ?? 5000,
		rateLimit: options.rateLimit === undefined ? { limit: 600, windowMs: 60_000 } : options.rateLimit,
		variant: resolveVariants(options.variants ?? []),
		extensions: resolveExtensions(options.extensions ?? []),
	};
	if (config.token === config.readOnlyToken) throw new Error('token and readOnlyToken must differ');
	const host = options.host ?? '127.0.0.1';
	const state = new SandboxState(config);
	if (options.seed) seedStore(state.store, options.seed, todayUtc(), config.extensions);

	let closed = false;
	/** While down after a restart: ends the downtime early (used by close). */
	let endDowntime: (() => void) | undefined;
	const lifecycle = {
		restart(downMs: number, current?: ServerResponse): void {
			restart(downMs, current).catch((error: unknown) => console.error('[sandbox] restart failed', error));
		},
	};
	const serveApi = createApi(state);
	const serveAdmin = createAdmin(state, lifecycle);

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://sandbox');
		const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
		const raw = await readBody(req);
		if (path === '/api/v1' || path.startsWith('/api/v1/')) {
			await serveApi(req, res, path.slice('/api/v1'.length) || '/', url.searchParams, raw);
		} else if (path.startsWith('/__sandbox/')) {
			serveAdmin(req, res, path.slice('/__sandbox'.length), url.searchParams, raw);
		} else {
			sendJson(res, 404, errorBody(404, `Nothing here: the API is under /api/v1, the sandbox admin under /__sandbox`));
		}
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((error: unknown) => {
			if (!(error instanceof ApiError)) console.error('[sandbox] request failed', error);
			if (!res.headersSent && !res.destroyed) sendJson(res, 500, errorBody(500, 'Internal server error'));
		});
	});

	const listen = (port: number) =>
		new Promise<number>((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, host, () => {
				server.off('error', reject);
				resolve((server.address() as AddressInfo).port);
			});
		});

	/** Stops listening at once; the other connections go when `current` (the admin request) is answered. */
	async function restart(downMs: number, current?: ServerResponse): Promise<void> {
		if (!server.listening || closed) return;
		const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
		if (current && !current.writableFinished) current.once('finish', () => server.closeAllConnections());
		else server.closeAllConnections();
		const downtime = new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, downMs);
			endDowntime = () => {
				clearTimeout(timer);
				resolve();
			};
		});
		await Promise.all([stopped, downtime]);
		endDowntime = undefined;
		if (!closed) await listen(port);
	}

	const port = await listen(options.port ?? 0);
	const sweepTimer =
		config.overdueSweepMs > 0 ? setInterval(() => sweepOverdue(state), config.overdueSweepMs).unref() : undefined;
	// A wildcard bind is reached through loopback.
	const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
	const url = `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;

	return {
		url,
		baseUrl: `${url}/api/v1`,
		token: config.token,
		readOnlyToken: config.readOnlyToken,
		port,
		state,
		seed: (seedOptions) => seedStore(state.store, seedOptions, todayUtc(), config.extensions),
		reset: () => state.reset(),
		restart: (downMs) => restart(downMs),
		async close() {
			closed = true;
			clearInterval(sweepTimer);
			endDowntime?.();
			state.webhooks.stop();
			if (!server.listening) return;
			const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			await stopped;
		},
	};
}
