import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DetailedFailure } from './errors';
import { cancelledError, failureToError, unexpectedSuccessError, waitTooLongError } from './errors';
import type { Clock } from './flowControl';
import { InFlightLimit, systemClock } from './flowControl';
import { windowPace, windowShare } from './pacing';
import { decideRetry, isUnclear, limitFrom, rateLimitWait, remainingFrom, WaitBudget } from './retryPolicy';
import type { ErpBudget } from './sharedBudget';
import { BudgetRegistry, budgetKey, processBudgets } from './sharedBudget';
import type { ErpRequest, ErpResponse, RawResponse, TransportOptions } from './types';
import { DEFAULT_TRANSPORT_OPTIONS, isObject } from './types';

const CREDENTIAL_TYPE = 'erpApi';

/** The parts of an n8n function context the transport uses: execute(), listSearch and poll() all provide them. */
export type RequestContext = Pick<IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions, 'getNode' | 'getCredentials' | 'helpers'>;

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
 * Every HTTP call of the nodes goes through one ErpClient per node run. `request()`: wait for a slot (the run's
 * Concurrency, then the ERP's cap in this process), for any 429 wait and for the pace, send, open the envelope,
 * and on failure ask the retry policy whether, and after how long, to send it again, or say clearly what went wrong.
 * The 429 gate, the rate-limit window, the pace and the cap are shared by every run talking to the same ERP
 * (sharedBudget.ts), so the runs of one n8n learn a limit once and keep to it together.
 */
export class ErpClient {
	private readonly runLimit: InFlightLimit;

	private readonly budgetKey: string;

	private constructor(
		private readonly ctx: RequestContext,
		readonly node: INode,
		readonly baseUrl: string,
		private readonly credentials: ICredentialDataDecryptedObject,
		readonly options: TransportOptions,
		private readonly clock: Clock,
		private readonly signal: AbortSignal | undefined,
		private readonly budgets: BudgetRegistry,
	) {
		this.runLimit = new InFlightLimit(options.concurrency);
		this.budgetKey = budgetKey(baseUrl, credentials.apiToken);
	}

	/** `budgets`: the process's registry; a test's own clock gets a registry of its own unless it passes one. */
	static async create(ctx: RequestContext, options: Partial<TransportOptions> = {}, clock?: Clock, budgets?: BudgetRegistry): Promise<ErpClient> {
		const node = ctx.getNode();
		// Read once per run: n8n would otherwise decrypt (and in a server, load) the credential on every request.
		const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
		const signal = 'getExecutionCancelSignal' in ctx ? (ctx as IExecuteFunctions).getExecutionCancelSignal?.() : undefined;
		const settings = { ...DEFAULT_TRANSPORT_OPTIONS, ...options };
		const registry = budgets ?? (clock ? new BudgetRegistry(clock) : processBudgets());
		return new ErpClient(ctx, node, baseUrlOf(node, credentials.baseUrl), credentials, settings, clock ?? systemClock(signal), signal, registry);
	}

	/** This ERP's shared budget, looked up for each use: one left idle may have been dropped meanwhile. */
	private budget(): ErpBudget {
		return this.budgets.budgetFor(this.budgetKey);
	}

	/** A wait in a shared queue: it rejects only when the execution is cancelled (flowControl.ts' queueTurn). */
	private async cancellable<T>(wait: () => Promise<T>, itemIndex?: number): Promise<T> {
		try {
			return await wait();
		} catch {
			throw cancelledError(this.node, itemIndex);
		}
	}

	/** Runs `work` holding a slot of the run (its Concurrency) and one of the ERP's in this process. */
	private async inSlots<T>(shared: ErpBudget, request: ErpRequest, work: () => Promise<T>): Promise<T> {
		const releaseRun = await this.cancellable(() => this.runLimit.acquire(this.signal), request.itemIndex);
		try {
			const releaseShared = await this.cancellable(() => shared.inFlight.acquire(this.signal), request.itemIndex);
			try {
				return await work();
			} finally {
				releaseShared();
			}
		} finally {
			releaseRun();
		}
	}

	/** Runs one item's work once the rate-limit window has room for it (see RateWindow). */
	async admitted<T>(work: () => Promise<T>): Promise<T> {
		const done = await this.cancellable(() => this.budget().rateWindow.admit(this.signal));
		try {
			return await work();
		} finally {
			done();
		}
	}

	/** Sends the request with the retry rules and returns the opened envelope, or throws a NodeApiError. */
	async request(first: ErpRequest): Promise<ErpResponse> {
		const budget = new WaitBudget(this.options.maxTotalWaitMs);
		let request = first;
		let retries = 0;
		let unclearEarlier = false;
		for (;;) {
			if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
			const shared = this.budget();
			let sentAt = 0;
			const outcome = await this.inSlots(shared, request, async () => {
				await this.waitAtGate(request, budget, shared);
				sentAt = this.clock.now();
				return await this.send(request);
			});
			let failure: DetailedFailure;
			let paceFromRefusals = false;
			if ('kind' in outcome) failure = outcome;
			else {
				paceFromRefusals = this.learnLimit(shared, outcome, sentAt);
				const envelope = openEnvelope(outcome.body);
				// `success: false` is a failure whatever the status.
				if (outcome.statusCode < 300 && envelope.success !== false) return this.accepted(request, outcome.statusCode, envelope);
				const namedWait = rateLimitWait(outcome.headers, this.clock.now());
				failure = { kind: 'status', statusCode: outcome.statusCode, namedWait, body: outcome.body };
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
			if (request.method === 'POST' && isUnclear(failure) && request.resolveUnclear) {
				const verdict = await this.resolve(request.resolveUnclear, request);
				if ('found' in verdict) return { statusCode: 200, data: verdict.found, recovered: true };
				// After a timeout the ERP may still be working on the POST: finding nothing yet proves nothing.
				provenNotWritten = 'absent' in verdict && !(failure.kind === 'network' && failure.timedOut);
			}

			const { maxRetries, timeoutMs } = this.options;
			const decision = decideRetry(failure, { method: request.method, retriesSoFar: retries, maxRetries, random: this.clock.random, provenNotWritten });
			const fail = () =>
				failureToError(failure, { node: this.node, request, baseUrl: this.baseUrl, retries, timeoutMs, provenNotWritten, redact: this.redact });
			if (!decision.retry) throw fail();
			// A 429 that names no wait, from an ERP that tells nothing of its window, slows the pace instead of stopping all.
			if (decision.rateLimited && !(paceFromRefusals && !decision.namedByErp)) {
				shared.gate.holdUntil(this.clock.now() + decision.delayMs);
				shared.rateWindow.expectNewWindow();
			}
			if (!budget.fits(decision.delayMs)) {
				const namedAtMs = failure.kind === 'status' ? failure.namedWait?.atMs : undefined;
				throw decision.namedByErp ? this.waitTooLong(request, decision.delayMs, failure.body, namedAtMs) : fail();
			}
			await this.pause(decision.delayMs, request);
			budget.spend(decision.delayMs);
			unclearEarlier ||= isUnclear(failure);
			retries++;
		}
	}

	/**
	 * Waits out another request's 429 (it counts toward this request's budget), unless it is longer than the
	 * budget; then for its turn at the pace, if the ERP's refusals set one.
	 */
	private async waitAtGate(request: ErpRequest, budget: WaitBudget, shared: ErpBudget): Promise<void> {
		for (;;) {
			const hold = shared.gate.waitLeft();
			if (hold > 0) {
				if (!budget.fits(hold)) throw this.waitTooLong(request, hold);
				await this.pause(hold, request);
				budget.spend(hold);
				continue;
			}
			// The gate may close while a request waits for its turn: it asks again before it goes.
			const turn = shared.pacer.turn();
			if (turn <= 0) return;
			await this.pause(turn, request);
		}
	}

	/**
	 * What an answer tells of the ERP's limit. With a count of requests left, the window: the runs keep to their
	 * share of it, and when none is left and the answer names the reset as seconds from now, all wait for it
	 * instead of asking to be refused. A reset named as an instant in whole epoch seconds can be up to a second
	 * late (on a short window that wastes about half of it: the bench measured 1.87× the minimum), so then all wait
	 * for the window's end as learnt from earlier windows (WindowEnd); before it is learnt, one request goes and
	 * the 429 names the wait from the moment it refuses. Without a count, refusals that name no wait set the pace
	 * (a wait named is waited out by all, and an ERP answering some requests 429 at random does not throttle every
	 * run down). Returns whether a pace learnt from refusals was already on (then such a 429 cuts the pace instead
	 * of stopping every request).
	 * The API document names no rate-limit headers: the common ones are read (retryPolicy.ts), a guess that never
	 * holds anything back when the ERP sends none of them.
	 */
	private learnLimit(shared: ErpBudget, answer: RawResponse, sentAt: number): boolean {
		const remaining = remainingFrom(answer.headers);
		if (answer.statusCode === 429) {
			const named = rateLimitWait(answer.headers, this.clock.now());
			shared.windowEnd.refused(sentAt, named?.atMs);
			// A 429 that names its wait is waited out by all (the gate); only a bare one sets a pace.
			if (remaining !== undefined || named !== undefined) return false;
			// The first refusal ends a burst: all wait as before. Once paced, the pace is cut instead.
			const paced = shared.pacer.pace() !== undefined;
			shared.pacer.refused(sentAt);
			return paced;
		}
		shared.pacer.succeeded();
		const now = this.clock.now();
		const named = rateLimitWait(answer.headers, now);
		const limit = limitFrom(answer.headers);
		shared.windowEnd.observe({ remaining, limit, resetAtMs: named?.atMs, sentAt, answeredAt: now });
		if (shared.gate.holding()) return false;
		shared.rateWindow.observe(remaining, named?.atMs);
		const windowMs = shared.windowEnd.length(true);
		if (remaining !== undefined && windowMs && (remaining === 0 || shared.pacer.keepsToWindow())) {
			const pace = windowPace({ remaining, limit, windowMs, msLeft: (shared.windowEnd.expectedEnd() ?? now) - now, spenders: shared.rateWindow.spenders() });
			if (pace !== undefined) shared.pacer.keepTo(pace);
		}
		// Paced, less than one request of what is left is this process's: the others spend it, this one waits.
		const noneMine = remaining === 0 || (remaining !== undefined && shared.pacer.keepsToWindow() && remaining * windowShare(shared.rateWindow.spenders()) < 1);
		if (!noneMine || answer.statusCode >= 300 || !named) return false;
		const resumeAt = named.atMs === undefined ? now + named.ms : shared.windowEnd.endsBy();
		if (resumeAt !== undefined && resumeAt > now) {
			shared.gate.holdUntil(resumeAt);
			shared.rateWindow.expectNewWindow();
		}
		return false;
	}

	private accepted(request: ErpRequest, statusCode: number, { data, meta }: ReturnType<typeof openEnvelope>): ErpResponse {
		const wrongShape =
			(request.expect === 'record' && !isObject(data)) || (request.expect === 'list' && data !== undefined && data !== null && !Array.isArray(data));
		if (wrongShape) throw unexpectedSuccessError({ node: this.node, request, redact: this.redact }, statusCode, request.expect as 'record' | 'list');
		return { statusCode, data: request.expect === 'list' ? (data ?? []) : data, meta };
	}

	/** Asks the request's lookup what became of an unclear POST; a lookup that fails cannot tell. */
	private async resolve(lookup: NonNullable<ErpRequest['resolveUnclear']>, request: ErpRequest) {
		try {
			return await lookup();
		} catch (error) {
			if (this.signal?.aborted || isAbort(error)) throw cancelledError(this.node, request.itemIndex);
			return { unknown: true } as const;
		}
	}

	private async pause(ms: number, request: ErpRequest): Promise<void> {
		try {
			await this.clock.sleep(ms);
		} catch {
			// n8n's sleep rejects only when the execution is cancelled.
			throw cancelledError(this.node, request.itemIndex);
		}
		if (this.signal?.aborted) throw cancelledError(this.node, request.itemIndex);
	}

	private async send(request: ErpRequest): Promise<RawResponse | DetailedFailure> {
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
					timeout: this.options.timeoutMs,
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

	private waitTooLong(request: ErpRequest, ms: number, body?: unknown, namedAtMs?: number) {
		const wait = { ms, untilMs: this.clock.now() + ms, budgetMs: this.options.maxTotalWaitMs, body, namedAtMs };
		return waitTooLongError({ node: this.node, request, redact: this.redact }, wait);
	}
}
