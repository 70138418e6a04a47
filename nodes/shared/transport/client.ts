import type { ICredentialDataDecryptedObject, IExecuteFunctions, ILoadOptionsFunctions, INode, IPollFunctions, IWebhookFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { DetailedFailure } from './errors';
import { cancelledError, failureToError, unexpectedSuccessError, waitTooLongError } from './errors';
import type { RateHeaders } from './rateControl';
import { erpKey, rateControllerFor, readRateHeaders, WaitTooLong } from './rateControl';
import { decideRetry, isIdempotent, isUnclear } from './retryPolicy';
import type { ErpRequest, ErpResponse, RawResponse, TransportOptions, UnclearResolution } from './types';
import { DEFAULT_TRANSPORT_OPTIONS, isObject } from './types';

const CREDENTIAL_TYPE = 'erpApi';

/** The parts of an n8n function context the transport uses: execute(), listSearch, poll() and webhook() all provide them. */
export type RequestContext = Pick<IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions, 'getNode' | 'getCredentials' | 'helpers'>;

/** What came of a request: its answer, or what only the caller can settle (`answerOf` fails on those). An unclear POST or
 * PATCH (the ERP may have done it) is settled by the caller's lookup: the record found (done, `recovered`), proof nothing
 * was written (sent again as the retry rules allow), or neither; a 400 or 422 by a changed request `instead`, or not. */
export type Outcome = { done: ErpResponse } | { unclear: Unclear } | { refused: Refused };
export type Unclear = { error: NodeApiError; settle: (lookup: Promise<UnclearResolution>) => Promise<Outcome> };
export type Refused = { statusCode: number; body: unknown; error: NodeApiError; instead: (request: ErpRequest) => Promise<Outcome> };

/** The answer of an outcome nobody settles: an unclear or refused request fails. */
export function answerOf(outcome: Outcome): ErpResponse {
	if ('done' in outcome) return outcome.done;
	throw 'unclear' in outcome ? outcome.unclear.error : outcome.refused.error;
}

/** One request's retries so far, all its waits (ms), whether an earlier attempt may have been done, the last one's time limit. */
type Tries = { retries: number; waitedMs: number; unclearEarlier: boolean; timeoutMs: number };

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

const toCount = (value: unknown) => ((typeof value === 'string' || typeof value === 'number') && Number.isInteger(Number(value)) && Number(value) >= 0 ? Number(value) : undefined);

/** Opens the `{success, data, meta}` envelope; a body without it (bare JSON, or 204's nothing) is the data itself. */
function openEnvelope(body: unknown): { success?: boolean; data: unknown; meta?: ErpResponse['meta'] } {
	if (!isObject(body) || (typeof body.success !== 'boolean' && !('data' in body))) return { data: body === '' ? undefined : body };
	const { meta } = body;
	const opened = isObject(meta) ? { page: toCount(meta.page), perPage: toCount(meta.per_page), total: toCount(meta.total) } : undefined;
	return { success: typeof body.success === 'boolean' ? body.success : undefined, data: body.data, meta: opened };
}

/** An abort by n8n, as the HTTP client or n8n's sleep reports it. */
function isAbort(error: unknown): boolean {
	const { cause, name, code } = error as { cause?: { code?: unknown; name?: unknown }; name?: unknown; code?: unknown };
	return [cause?.code, code].includes('ERR_CANCELED') || [cause?.name, name].some((n) => n === 'AbortError' || n === 'CanceledError');
}

/** Every HTTP call of the nodes, one ErpClient per node run: each attempt takes a slot of the run's Concurrency, is
 * admitted by the ERP's rate controller, sent, learnt from; then done, retried, failed, or handed back to settle. */
export class ErpClient {
	/** The run's requests holding a slot of its Concurrency, those waiting for one, and those in their back-off. */
	private running = 0;
	private readonly queue: Array<{ go: () => void; stop: () => void }> = [];
	private readonly sleepers = new Set<AbortController>();
	private readonly erp: string;

	private constructor(private readonly ctx: RequestContext, readonly node: INode, readonly baseUrl: string, private readonly credentials: ICredentialDataDecryptedObject, readonly options: TransportOptions, private readonly signal?: AbortSignal) {
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
	async request(request: ErpRequest): Promise<ErpResponse> {
		return answerOf(await this.exchange(request));
	}
	/** As `request`, but an unclear POST or PATCH and a refusal (400, 422) come back for the caller to settle. */
	async exchange(request: ErpRequest, tries: Tries = { retries: 0, waitedMs: 0, unclearEarlier: false, timeoutMs: 0 }): Promise<Outcome> {
		for (;;) {
			const answer = await this.attempt(request, tries);
			if (!('kind' in answer)) return { done: answer };
			const status = answer.kind === 'status' ? answer.statusCode : undefined;
			// A DELETE repeated after an unclear failure finds nothing: the first attempt did delete.
			if (request.method === 'DELETE' && tries.unclearEarlier && status === 404) return { done: { statusCode: 404, data: undefined } };
			if (status === 400 || status === 422) return { refused: { statusCode: status, body: answer.body, error: this.fail(request, answer, tries), instead: async (next) => await this.exchange(next, tries) } };
			if (!isIdempotent(request.method) && isUnclear(answer)) return { unclear: { error: this.fail(request, answer, tries), settle: async (lookup) => await this.settle(request, answer, tries, lookup) } };
			await this.retry(request, answer, tries, false);
		}
	}
	private async settle(request: ErpRequest, failure: DetailedFailure, tries: Tries, lookup: Promise<UnclearResolution>): Promise<Outcome> {
		// A lookup that fails cannot tell.
		const verdict = await lookup.catch((error: unknown): UnclearResolution => {
			if (this.signal?.aborted || isAbort(error)) throw cancelledError(this.node, request.itemIndex);
			return { unknown: true };
		});
		if ('found' in verdict) return { done: { statusCode: 200, data: verdict.found, recovered: true } };
		if ('unknown' in verdict) throw this.fail(request, failure, tries);
		// After a timeout the ERP may still be working on the write: finding nothing yet proves nothing.
		await this.retry(request, failure, tries, !(failure.kind === 'network' && failure.timedOut));
		return await this.exchange(request, tries);
	}
	/** Waits for the retry the rules allow within the wait budget and the deadline, or throws the request's error. */
	private async retry(request: ErpRequest, failure: DetailedFailure, tries: Tries, provenNotWritten: boolean) {
		const { maxRetries, maxTotalWaitMs } = this.options;
		const decision = decideRetry(failure, { method: request.method, retriesSoFar: tries.retries, maxRetries, random: Math.random, provenNotWritten });
		if (!decision.retry) throw this.fail(request, failure, tries, provenNotWritten);
		if (tries.waitedMs + decision.delayMs > maxTotalWaitMs || decision.delayMs > this.timeLeft()) {
			const namedAtMs = failure.kind === 'status' ? failure.namedWait?.atMs : undefined;
			throw decision.namedByErp ? this.waitTooLong(request, decision.delayMs, { body: failure.body, namedAtMs }) : this.fail(request, failure, tries, provenNotWritten);
		}
		await this.pause(decision.delayMs, request);
		tries.waitedMs += decision.delayMs;
		tries.unclearEarlier ||= isUnclear(failure);
		tries.retries++;
	}
	/** One attempt, holding a slot of the run from admission to answer; a pause it was held counts toward the wait budget. */
	private async attempt(request: ErpRequest, tries: Tries): Promise<ErpResponse | DetailedFailure> {
		const release = await this.slot(request);
		try {
			const rate = rateControllerFor(this.erp);
			const ticket = await rate.admit(Math.min(this.options.maxTotalWaitMs - tries.waitedMs, this.timeLeft()), this.signal, this.options.deadlineAt).catch((error: unknown) => {
				throw error instanceof WaitTooLong ? this.waitTooLong(request, error.ms, { named: error.named }) : cancelledError(this.node, request.itemIndex);
			});
			tries.waitedMs += ticket.pausedMs;
			tries.timeoutMs = Math.max(1, Math.min(this.options.timeoutMs, this.timeLeft()));
			let answer: RawResponse | DetailedFailure | undefined;
			let learnt: { statusCode: number; limits: RateHeaders } | undefined;
			try {
				answer = await this.send(request, tries.timeoutMs);
				if (!('kind' in answer)) learnt = { statusCode: answer.statusCode, limits: readRateHeaders(answer.headers, Date.now()) };
			} finally {
				rate.learn(ticket, learnt);
			}
			if ('kind' in answer) return answer;
			const { success, data, meta } = openEnvelope(answer.body);
			// `success: false` is a failure whatever the status.
			if (answer.statusCode >= 300 || success === false) return { kind: 'status', statusCode: answer.statusCode, namedWait: learnt?.limits.wait, body: answer.body };
			const { expect } = request;
			const unexpected = (expect === 'record' && !isObject(data)) || (expect === 'list' && data !== undefined && data !== null && !Array.isArray(data));
			if (unexpected) throw unexpectedSuccessError({ node: this.node, request, redact: this.redact }, answer.statusCode, expect);
			return { statusCode: answer.statusCode, data: expect === 'list' ? (data ?? []) : data, meta };
		} finally {
			release();
		}
	}
	private timeLeft(): number {
		return this.options.deadlineAt === undefined ? Number.POSITIVE_INFINITY : Math.max(0, this.options.deadlineAt - Date.now());
	}
	private endWaits(): void {
		for (const waiter of this.queue.splice(0)) waiter.stop();
		for (const sleeper of this.sleepers) sleeper.abort();
		// Looked up again: a controller left idle may have been dropped meanwhile.
		rateControllerFor(this.erp).wake();
	}
	/** A slot of the run's Concurrency; a cancelled run leaves the queue at once. */
	private async slot(request: ErpRequest): Promise<() => void> {
		if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
		if (this.running < this.options.concurrency) this.running++;
		else await new Promise<void>((go, stop) => this.queue.push({ go, stop: () => stop(cancelledError(this.node, request.itemIndex)) }));
		// The slot passes straight to the next waiter; only when nobody waits is it given back.
		return () => {
			const next = this.queue.shift();
			if (next) next.go();
			else this.running--;
		};
	}
	/** The retry back-off; only the run's cancellation ends it early, and then the request stops. */
	private async pause(ms: number, request: ErpRequest): Promise<void> {
		const sleeper = new AbortController();
		this.sleepers.add(sleeper);
		if (!this.signal?.aborted) await sleep(ms, sleeper.signal).catch(() => undefined);
		this.sleepers.delete(sleeper);
		if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
	}
	private async send({ method, path, qs, body, itemIndex }: ErpRequest, timeout: number): Promise<RawResponse | DetailedFailure> {
		const saved = this.node.credentials?.[CREDENTIAL_TYPE];
		// The credential read once per run is handed back, so n8n does not decrypt it again.
		const credentialsDecrypted = saved?.id ? { id: saved.id, name: saved.name, type: CREDENTIAL_TYPE, data: this.credentials } : undefined;
		const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
		const options = { method, url: `${this.baseUrl}${path}`, qs, body, headers, json: true, timeout, returnFullResponse: true, ignoreHttpStatusErrors: true };
		try {
			return (await this.ctx.helpers.httpRequestWithAuthentication.call(this.ctx as IExecuteFunctions, CREDENTIAL_TYPE, options, credentialsDecrypted && { credentialsDecrypted })) as RawResponse;
		} catch (error) {
			// A cancelled execution is not a failure to retry.
			if (this.signal?.aborted || isAbort(error)) throw cancelledError(this.node, itemIndex);
			// n8n wraps the HTTP client's error in a NodeApiError; its cause holds the socket-level code.
			const { code, message } = ((error as { cause?: unknown }).cause ?? error) as { code?: unknown; message?: unknown };
			const [text, codeText] = [typeof message === 'string' ? message : '', typeof code === 'string' ? code : 'ERR_UNKNOWN'];
			return { kind: 'network', code: codeText, timedOut: /timeout|timed out/i.test(text) || codeText === 'ETIMEDOUT', detail: text || codeText };
		}
	}
	private fail(request: ErpRequest, failure: DetailedFailure, { retries, timeoutMs }: Tries, provenNotWritten = false): NodeApiError {
		return failureToError(failure, { node: this.node, request, baseUrl: this.baseUrl, retries, timeoutMs, provenNotWritten, redact: this.redact });
	}
	private readonly redact = (text: string): string => {
		const token = typeof this.credentials.apiToken === 'string' ? this.credentials.apiToken : '';
		return token.length >= 4 ? text.split(token).join('[redacted]') : text;
	};

	/** `named`: a wait the ERP named (with its answer's `body` and the instant it named); false: the turns of its pace. */
	private waitTooLong(request: ErpRequest, ms: number, { body, namedAtMs, named = true }: { body?: unknown; namedAtMs?: number; named?: boolean }) {
		return waitTooLongError({ node: this.node, request, redact: this.redact }, { ms, untilMs: Date.now() + ms, budgetMs: Math.min(this.options.maxTotalWaitMs, this.timeLeft()), body, namedAtMs, named });
	}
}
