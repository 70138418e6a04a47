import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { DetailedFailure } from './errors';
import { failureToError } from './errors';
import type { Clock } from './flowControl';
import { BackOffGate, InFlightLimit, RateWindow, remainingFrom, systemClock } from './flowControl';
import { decideRetry, isAmbiguous, parseRetryAfter } from './retryPolicy';
import type { ErpRequest, ErpResponse, ListMeta, RawResponse, TransportOptions } from './types';
import { DEFAULT_TRANSPORT_OPTIONS } from './types';

export const CREDENTIAL_TYPE = 'erpApi';

/** The parts of an n8n function context the transport uses: execute() and listSearch both provide them. */
export type RequestContext = Pick<IExecuteFunctions | ILoadOptionsFunctions, 'getNode' | 'getCredentials' | 'helpers'>;

/**
 * The one place that turns the credential's Base URL into the prefix of every request.
 * Returns an error sentence instead of throwing, so the caller can raise it with its own node context.
 */
export function normalizeBaseUrl(raw: unknown): { url: string } | { problem: string } {
	const value = typeof raw === 'string' ? raw.trim() : '';
	if (value === '') {
		return { problem: 'The ERP API credential has no Base URL: enter e.g. https://erp.example.com/api/v1' };
	}
	let parsed: URL;
	try {
		parsed = new URL(value);
	} catch {
		return {
			problem: `The Base URL "${value}" is not a web address: start it with https:// (e.g. https://erp.example.com/api/v1)`,
		};
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		return {
			problem: `The Base URL "${value}" must start with http:// or https:// (e.g. https://erp.example.com/api/v1)`,
		};
	}
	if (parsed.search || parsed.hash) {
		return { problem: `The Base URL "${value}" must not contain ? or #: use e.g. https://erp.example.com/api/v1` };
	}
	return { url: value.replace(/\/+$/, '') };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toCount(value: unknown): number | undefined {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Opens the `{success, data, meta}` envelope. A body without the envelope is taken as the data itself,
 * so a service that answers bare JSON (or 204 with no body) still works.
 */
export function openEnvelope(body: unknown): { data: unknown; meta?: ListMeta } {
	if (!isObject(body) || !('data' in body)) {
		return { data: body === '' ? undefined : body };
	}
	const meta = isObject(body.meta)
		? {
				page: toCount(body.meta.page),
				perPage: toCount(body.meta.per_page),
				total: toCount(body.meta.total),
			}
		: undefined;
	return { data: body.data, meta };
}

function networkFailure(error: unknown): DetailedFailure {
	// n8n wraps the HTTP client's error in a NodeApiError; its cause holds the socket-level code.
	const cause = (error as { cause?: unknown }).cause ?? error;
	const { code, message } = cause as { code?: unknown; message?: unknown };
	const text = typeof message === 'string' ? message : '';
	const codeText = typeof code === 'string' ? code : 'ERR_UNKNOWN';
	return {
		kind: 'network',
		code: codeText,
		timedOut: /timeout|timed out/i.test(text) || codeText === 'ETIMEDOUT',
		detail: text || codeText,
	};
}

function isExecutionCancelled(error: unknown): boolean {
	const cause = (error as { cause?: { code?: unknown; name?: unknown } }).cause;
	return cause?.code === 'ERR_CANCELED' || cause?.name === 'AbortError' || cause?.name === 'CanceledError';
}

/**
 * Every HTTP call of the nodes goes through one ErpClient per node run: it owns the base URL,
 * the credential, the retry rules, the shared 429 back-off and the mapping of failures to errors.
 */
export class ErpClient {
	private readonly gate: BackOffGate;

	private readonly rateWindow = new RateWindow();

	private readonly inFlight: InFlightLimit;

	private constructor(
		private readonly ctx: RequestContext,
		readonly node: INode,
		readonly baseUrl: string,
		private readonly credentials: ICredentialDataDecryptedObject,
		readonly options: TransportOptions,
		private readonly clock: Clock,
	) {
		this.gate = new BackOffGate(clock);
		this.inFlight = new InFlightLimit(options.concurrency);
	}

	static async create(
		ctx: RequestContext,
		options: Partial<TransportOptions> = {},
		clock: Clock = systemClock(
			'getExecutionCancelSignal' in ctx && typeof ctx.getExecutionCancelSignal === 'function'
				? (ctx as IExecuteFunctions).getExecutionCancelSignal()
				: undefined,
		),
	): Promise<ErpClient> {
		const node = ctx.getNode();
		// Read once per run: n8n would otherwise decrypt (and in a server, load) the credential on every request.
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const base = normalizeBaseUrl(credentials.baseUrl);
		if ('problem' in base) throw new NodeOperationError(node, base.problem);
		return new ErpClient(ctx, node, base.url, credentials, { ...DEFAULT_TRANSPORT_OPTIONS, ...options }, clock);
	}

	/** Runs one item's work once the rate-limit window has room for it (see RateWindow). */
	async admitted<T>(work: () => Promise<T>): Promise<T> {
		const done = await this.rateWindow.admit();
		try {
			return await work();
		} finally {
			done();
		}
	}

	/** Sends the request with the retry rules and returns the opened envelope, or throws a NodeApiError. */
	async request(request: ErpRequest): Promise<ErpResponse> {
		let retries = 0;
		let waitedMs = 0;
		let ambiguousEarlier = false;
		for (;;) {
			const outcome = await this.inFlight.run(async () => {
				// Waiting out another request's 429 counts toward this request's total wait as well.
				waitedMs += await this.gate.pass();
				return await this.send(request);
			});
			if (!('kind' in outcome) && !this.gate.holding()) this.rateWindow.observe(remainingFrom(outcome.headers));
			if (!('kind' in outcome) && outcome.statusCode < 300) {
				return { statusCode: outcome.statusCode, ...openEnvelope(outcome.body) };
			}
			const failure: DetailedFailure =
				'kind' in outcome
					? outcome
					: {
							kind: 'status',
							statusCode: outcome.statusCode,
							retryAfterMs: parseRetryAfter(outcome.headers, this.clock.now()),
							body: outcome.body,
						};

			// A DELETE repeated after an ambiguous failure finds nothing: the first attempt did delete.
			if (request.method === 'DELETE' && ambiguousEarlier && failure.kind === 'status' && failure.statusCode === 404) {
				return { statusCode: 404, data: undefined };
			}

			const decision = decideRetry(request.method, failure, retries, this.options.maxRetries, this.clock.random);
			if (!decision.retry || waitedMs + decision.delayMs > this.options.maxTotalWaitMs) {
				throw this.toError(failure, request, retries);
			}
			ambiguousEarlier ||= isAmbiguous(failure);
			if (decision.rateLimited) {
				this.gate.holdUntil(this.clock.now() + decision.delayMs);
				this.rateWindow.expectNewWindow();
			}
			await this.clock.sleep(decision.delayMs);
			waitedMs += decision.delayMs;
			retries++;
		}
	}

	private async send(request: ErpRequest): Promise<RawResponse | DetailedFailure> {
		const options: IHttpRequestOptions = {
			method: request.method,
			url: `${this.baseUrl}${request.path}`,
			qs: request.qs,
			body: request.body,
			headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
			json: true,
			timeout: this.options.timeoutMs,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		};
		const nodeCredentials = this.node.credentials?.[CREDENTIAL_TYPE];
		try {
			const response = (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx as IExecuteFunctions,
				CREDENTIAL_TYPE,
				options,
				nodeCredentials?.id
					? {
							credentialsDecrypted: {
								id: nodeCredentials.id,
								name: nodeCredentials.name,
								type: CREDENTIAL_TYPE,
								data: this.credentials,
							},
						}
					: undefined,
			)) as RawResponse;
			return response;
		} catch (error) {
			// A cancelled execution is not a failure to retry; n8n's own error is passed on as it is.
			if (isExecutionCancelled(error)) throw new NodeApiError(this.node, error as JsonObject);
			return networkFailure(error);
		}
	}

	private toError(failure: DetailedFailure, request: ErpRequest, retries: number) {
		const token = typeof this.credentials.apiToken === 'string' ? this.credentials.apiToken : '';
		return failureToError(failure, {
			node: this.node,
			request,
			baseUrl: this.baseUrl,
			retries,
			timeoutMs: this.options.timeoutMs,
			redact: (text) => (token.length >= 4 ? text.split(token).join('[redacted]') : text),
		});
	}
}
