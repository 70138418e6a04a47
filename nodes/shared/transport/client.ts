import type { ICredentialDataDecryptedObject, IExecuteFunctions, ILoadOptionsFunctions, INode, IPollFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { DetailedFailure } from './errors';
import { cancelledError, failureToError, unexpectedSuccessError, waitTooLongError } from './errors';
import type { RateHeaders } from './rateControl';
import { erpKey, rateControllerFor, readRateHeaders, WaitTooLong } from './rateControl';
import { decideRetry, isIdempotent, isUnclear } from './retryPolicy';
import type { ErpRequest, ErpResponse, RawResponse, TransportOptions } from './types';
import { DEFAULT_TRANSPORT_OPTIONS, isObject } from './types';

const CREDENTIAL_TYPE = 'erpApi';

/** The parts of an n8n function context the transport uses: execute(), listSearch, poll() and webhook() all provide them. */
export type RequestContext = Pick<IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions, 'getNode' | 'getCredentials' | 'helpers'>;

/** The credential's Base URL as the prefix of every request, or an error saying how to fix it. */
function baseUrlOf(node: INode, raw: unknown): string {
	const value = typeof raw === 'string' ? raw.trim() : '';
	const example = 'e.g. https://erp.example.com/api/v1';
	const fail = (problem: string) => new NodeOperationError(node, problem, { failure: { cause: 'configuration-invalid' } });
	if (value === '') throw fail(`The ERP API credential has no Base URL: enter ${example}`);
	if (!URL.canParse(value)) throw fail(`The Base URL "${value}" is not a web address: start it with https:// (${example})`);
	const parsed = new URL(value);
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw fail(`The Base URL "${value}" must start with http:// or https:// (${example})`);
	if (parsed.search || parsed.hash) throw fail(`The Base URL "${value}" must not contain ? or #: use ${example}`);
	return value.replace(/\/+$/, '');
}

function toCount(value: unknown): number | undefined {
	const n = typeof value === 'string' ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Opens the `{success, data, meta}` envelope; a body without it (bare JSON, or 204's nothing) is the data itself. */
function openEnvelope(body: unknown): { success?: boolean; data: unknown; meta?: ErpResponse['meta'] } {
	if (!isObject(body) || (typeof body.success !== 'boolean' && !('data' in body))) return { data: body === '' ? undefined : body };
	const { meta } = body;
	return {
		success: typeof body.success === 'boolean' ? body.success : undefined,
		data: body.data,
		meta: isObject(meta) ? { page: toCount(meta.page), perPage: toCount(meta.per_page), total: toCount(meta.total) } : undefined,
	};
}

function networkFailure(error: unknown): DetailedFailure {
	// n8n wraps the HTTP client's error in a NodeApiError; its cause holds the socket-level code.
	const { code, message } = ((error as { cause?: unknown }).cause ?? error) as { code?: unknown; message?: unknown };
	const text = typeof message === 'string' ? message : '';
	const codeText = typeof code === 'string' ? code : 'ERR_UNKNOWN';
	return { kind: 'network', code: codeText, timedOut: /timeout|timed out/i.test(text) || codeText === 'ETIMEDOUT', detail: text || codeText };
}

/** An abort by n8n, as the HTTP client or n8n's sleep reports it. */
function isAbort(error: unknown): boolean {
	const { cause, name, code } = error as { cause?: { code?: unknown; name?: unknown }; name?: unknown; code?: unknown };
	return [cause?.code, code].includes('ERR_CANCELED') || [cause?.name, name].some((n) => n === 'AbortError' || n === 'CanceledError');
}

/**
 * Every HTTP call of the nodes goes through one ErpClient per node run. A request waits at three points: a slot of
 * the run's Concurrency, the ERP's rate controller (rateControl.ts, shared by every run against the ERP), and its
 * own retry back-off. The client sends, opens the envelope, retries by retryPolicy.ts and words errors (errors.ts).
 */
export class ErpClient {
	/** The run's requests holding a slot of its Concurrency, those waiting for one, and those in their back-off. */
	private running = 0;
	private readonly queue: Array<{ go: () => void; stop: () => void }> = [];
	private readonly sleepers = new Set<AbortController>();
	private readonly erp: string;

	private constructor(
		private readonly ctx: RequestContext,
		readonly node: INode,
		readonly baseUrl: string,
		private readonly credentials: ICredentialDataDecryptedObject,
		readonly options: TransportOptions,
		private readonly signal: AbortSignal | undefined,
	) {
		this.erp = erpKey(baseUrl, credentials.apiToken);
		// One listener for the run: a cancelled execution ends every wait at once.
		signal?.addEventListener('abort', () => this.endWaits(), { once: true });
	}

	static async create(ctx: RequestContext, options: Partial<TransportOptions> = {}): Promise<ErpClient> {
		const node = ctx.getNode();
		// Read once per run: n8n would otherwise decrypt (and in a server, load) the credential on every request.
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const signal = 'getExecutionCancelSignal' in ctx ? (ctx as IExecuteFunctions).getExecutionCancelSignal?.() : undefined;
		return new ErpClient(ctx, node, baseUrlOf(node, credentials.baseUrl), credentials, { ...DEFAULT_TRANSPORT_OPTIONS, ...options }, signal);
	}

	/** Sends the request with the retry rules and returns the opened envelope, or throws a NodeApiError. */
	async request(first: ErpRequest): Promise<ErpResponse> {
		let request = first;
		let retries = 0;
		let waitedMs = 0;
		let unclearEarlier = false;
		for (;;) {
			const { answer, limits, pausedMs, timeoutMs } = await this.attempt(request, Math.min(this.options.maxTotalWaitMs - waitedMs, this.timeLeft()));
			waitedMs += pausedMs;
			let failure: DetailedFailure;
			if ('kind' in answer) failure = answer;
			else {
				const envelope = openEnvelope(answer.body);
				// `success: false` is a failure whatever the status.
				if (answer.statusCode < 300 && envelope.success !== false) return this.accepted(request, answer.statusCode, envelope);
				failure = { kind: 'status', statusCode: answer.statusCode, namedWait: limits.wait, body: answer.body };
			}
			const status = failure.kind === 'status' ? failure.statusCode : undefined;

			// A DELETE repeated after an unclear failure finds nothing: the first attempt did delete.
			if (request.method === 'DELETE' && unclearEarlier && status === 404) return { statusCode: 404, data: undefined };
			const amended = status === 400 || status === 422 ? request.amendRefused?.({ statusCode: status, body: failure.body }) : undefined;
			if (amended) {
				request = amended;
				continue;
			}
			let provenNotWritten = false;
			if (!isIdempotent(request.method) && isUnclear(failure) && request.resolveUnclear) {
				// A lookup that fails cannot tell.
				const verdict = await request.resolveUnclear().catch((error: unknown) => {
					if (this.signal?.aborted || isAbort(error)) throw cancelledError(this.node, request.itemIndex);
					return { unknown: true } as const;
				});
				if ('found' in verdict) return { statusCode: 200, data: verdict.found, recovered: true };
				// After a timeout the ERP may still be working on the write: finding nothing yet proves nothing.
				provenNotWritten = 'absent' in verdict && !(failure.kind === 'network' && failure.timedOut);
			}

			const { maxRetries, maxTotalWaitMs } = this.options;
			const decision = decideRetry(failure, { method: request.method, retriesSoFar: retries, maxRetries, random: Math.random, provenNotWritten });
			const fail = () =>
				failureToError(failure, { node: this.node, request, baseUrl: this.baseUrl, retries, timeoutMs, provenNotWritten, redact: this.redact });
			if (!decision.retry) throw fail();
			if (waitedMs + decision.delayMs > maxTotalWaitMs || decision.delayMs > this.timeLeft()) throw decision.namedByErp ? this.waitTooLong(request, decision.delayMs, { body: failure.body, namedAtMs: limits.wait?.atMs }) : fail();
			await this.pause(decision.delayMs, request);
			waitedMs += decision.delayMs;
			unclearEarlier ||= isUnclear(failure);
			retries++;
		}
	}

	/** The time left before the run's deadline (ms); without a deadline, no end. */
	private timeLeft(): number {
		const { deadlineAt } = this.options;
		return deadlineAt === undefined ? Number.POSITIVE_INFINITY : Math.max(0, deadlineAt - Date.now());
	}

	private endWaits(): void {
		for (const waiter of this.queue.splice(0)) waiter.stop();
		for (const sleeper of this.sleepers) sleeper.abort();
		this.rate().wake();
	}

	/** This ERP's rate controller, looked up for each use: one left idle may have been dropped meanwhile. */
	private rate() {
		return rateControllerFor(this.erp);
	}

	/**
	 * Sends once, holding a slot of the run from its admission by the ERP's rate controller to its answer: the answer
	 * (or how it failed on the way), what it said of the rate limit, how long a wait the ERP named held it, and the time
	 * limit it was sent with (shorter than Timeout when the deadline is nearer).
	 */
	private async attempt(
		request: ErpRequest,
		maxPauseMs: number,
	): Promise<{ answer: RawResponse | DetailedFailure; limits: RateHeaders; pausedMs: number; timeoutMs: number }> {
		const release = await this.slot(request);
		try {
			const rate = this.rate();
			const ticket = await rate.admit(maxPauseMs, this.signal, this.options.deadlineAt).catch((error: unknown) => {
				throw error instanceof WaitTooLong ? this.waitTooLong(request, error.ms, { named: error.named }) : cancelledError(this.node, request.itemIndex);
			});
			let answer: RawResponse | DetailedFailure | undefined;
			let limits: RateHeaders = {};
			const timeoutMs = Math.max(1, Math.min(this.options.timeoutMs, this.timeLeft()));
			try {
				answer = await this.send(request, timeoutMs);
				if (!('kind' in answer)) limits = readRateHeaders(answer.headers, Date.now());
				return { answer, limits, pausedMs: ticket.pausedMs, timeoutMs };
			} finally {
				rate.learn(ticket, answer && !('kind' in answer) ? { statusCode: answer.statusCode, limits } : undefined);
			}
		} finally {
			release();
		}
	}

	/** A slot of the run's Concurrency; a cancelled run leaves the queue at once. */
	private async slot(request: ErpRequest): Promise<() => void> {
		if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
		if (this.running < this.options.concurrency) this.running++;
		else {
			await new Promise<void>((go, stop) => this.queue.push({ go, stop: () => stop(cancelledError(this.node, request.itemIndex)) }));
		}
		let released = false;
		return () => {
			if (released) return;
			released = true;
			// The slot passes straight to the next waiter; only when nobody waits is it given back.
			const next = this.queue.shift();
			if (next) next.go();
			else this.running--;
		};
	}

	private accepted(request: ErpRequest, statusCode: number, { data, meta }: ReturnType<typeof openEnvelope>): ErpResponse {
		const wrongShape =
			(request.expect === 'record' && !isObject(data)) || (request.expect === 'list' && data !== undefined && data !== null && !Array.isArray(data));
		if (wrongShape) throw unexpectedSuccessError({ node: this.node, request, redact: this.redact }, statusCode, request.expect as 'record' | 'list');
		return { statusCode, data: request.expect === 'list' ? (data ?? []) : data, meta };
	}

	/** The retry back-off; a cancelled run ends it at once. */
	private async pause(ms: number, request: ErpRequest): Promise<void> {
		const sleeper = new AbortController();
		this.sleepers.add(sleeper);
		// Only the run's cancellation aborts it: thrown below.
		if (!this.signal?.aborted) await sleep(ms, sleeper.signal).catch(() => undefined);
		this.sleepers.delete(sleeper);
		if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
	}

	private async send(request: ErpRequest, timeoutMs: number): Promise<RawResponse | DetailedFailure> {
		const nodeCredentials = this.node.credentials?.[CREDENTIAL_TYPE];
		// The credential read once per run is handed back, so n8n does not decrypt it again.
		const credentialsDecrypted = nodeCredentials?.id
			? { id: nodeCredentials.id, name: nodeCredentials.name, type: CREDENTIAL_TYPE, data: this.credentials }
			: undefined;
		try {
			return (await this.ctx.helpers.httpRequestWithAuthentication.call(
				this.ctx as IExecuteFunctions,
				CREDENTIAL_TYPE,
				{
					method: request.method,
					url: `${this.baseUrl}${request.path}`,
					qs: request.qs,
					body: request.body,
					headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
					json: true,
					timeout: timeoutMs,
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				},
				credentialsDecrypted && { credentialsDecrypted },
			)) as RawResponse;
		} catch (error) {
			// A cancelled execution is not a failure to retry.
			if (this.signal?.aborted || isAbort(error)) throw cancelledError(this.node, request.itemIndex);
			return networkFailure(error);
		}
	}

	private readonly redact = (text: string): string => {
		const token = typeof this.credentials.apiToken === 'string' ? this.credentials.apiToken : '';
		return token.length >= 4 ? text.split(token).join('[redacted]') : text;
	};

	/** `named`: a wait the ERP named (with its answer's `body` and the instant it named); false: the turns of its pace. */
	private waitTooLong(request: ErpRequest, ms: number, { body, namedAtMs, named = true }: { body?: unknown; namedAtMs?: number; named?: boolean }) {
		const wait = { ms, untilMs: Date.now() + ms, budgetMs: Math.min(this.options.maxTotalWaitMs, this.timeLeft()), body, namedAtMs, named };
		return waitTooLongError({ node: this.node, request, redact: this.redact }, wait);
	}
}

/** Runs `work(0..count-1)`, at most `limit` at once; after a failure nothing new starts and it is thrown. */
export async function forEachConcurrently(count: number, limit: number, work: (index: number) => Promise<void>): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < count) {
			const index = next++;
			try {
				await work(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	if (failure) throw failure.error;
}
