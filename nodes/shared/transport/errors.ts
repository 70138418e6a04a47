import type { Failure as DeclaredFailure, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from './retryPolicy';
import { isIdempotent, isUnclear, neverReachedService, retryCannotCure } from './retryPolicy';
import type { ErpRequest, NamedWait } from './types';
import { isObject } from './types';
import { capitalize } from '../records';

// Every failure the user sees, worded once: what went wrong and what to do, in the operation's and the ERP's words.

/** URLs in a text shown to the user (or an AI model): without a user and password, nor their query (where keys may be). */
export function shownUrl(text: string): string {
	return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)(?:[^/\s@"]*@)?([^\s?#"]*)(?:\?[^\s#"]*)?/gi, '$1$2');
}

function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	const parts = Array.isArray(value) ? value.map(text).filter((part) => part !== undefined) : [];
	return parts.length ? parts.join(', ') : undefined;
}

/** Field → message, from `{error: {fields | details}}`, `{fields}`, `{errors: {field: [...]}}` or `{errors: [{field, message}]}`. */
function fieldMessages(body: unknown): Array<[string, string]> {
	const error = isObject(body) && isObject(body.error) ? body.error : {};
	for (const candidate of isObject(body) ? [error.fields, error.details, body.fields, body.errors] : []) {
		const pairs: Array<[string | undefined, string | undefined]> = Array.isArray(candidate)
			? candidate.filter(isObject).map((entry) => [text(entry.field) ?? text(entry.path) ?? text(entry.name), text(entry.message) ?? text(entry.msg)])
			: Object.entries(isObject(candidate) ? candidate : {}).map(([field, messages]) => [field, text(messages)]);
		const named = pairs.filter((pair): pair is [string, string] => pair[0] !== undefined && pair[1] !== undefined);
		if (named.length) return named;
	}
	return [];
}

/** The service's own sentence: `{error: {message}}`, `{message}`, `{error: "…"}`, `{errors: [...]}`, `{detail}`, HTML, plain text. */
function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (!trimmed.startsWith('<')) return trimmed.slice(0, 300) || undefined;
		const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
		const stripped = trimmed.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
		return `an HTML page: ${title || stripped.slice(0, 120) || '(empty)'}`;
	}
	if (!isObject(body)) return undefined;
	const fromError = isObject(body.error) ? (text(body.error.message) ?? text(body.error.detail)) : text(body.error);
	return [fromError, body.message, body.detail, body.title, body.error_description, Array.isArray(body.errors) ? body.errors : undefined].map(text).find(Boolean);
}

/** The ERP's machine-readable error code (`error.code`, `code`, `error_code`), when it sent one. */
function errorCode(body: unknown): string | undefined {
	const codes = isObject(body) ? [isObject(body.error) ? body.error.code : undefined, body.code, body.error_code] : [];
	const code = codes.find((value) => typeof value === 'string' || typeof value === 'number');
	return code === undefined ? undefined : String(code);
}
const codeNote = (body: unknown) => (errorCode(body) ? ` (error code ${errorCode(body)})` : '');
const said = (body: unknown) => (serverMessage(body) ? ` The ERP said: ${serverMessage(body)}${codeNote(body)}` : errorCode(body) ? ` The ERP's error code: ${errorCode(body)}` : '');
const afterRetries = (retries: number) => (retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '');

/** "45 s", "3 min 5 s", "1 h 2 min". */
function duration(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	const [h, min, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
	const parts: Array<[number, string]> = h > 0 ? [[h, 'h'], [min, 'min']] : min > 0 ? [[min, 'min'], [s, 's']] : [[s, 's']];
	return parts.filter(([n], i) => i === 0 || n > 0).map(([n, unit]) => `${n} ${unit}`).join(' ');
}

/** A failed attempt with what the service (or the network) said about it. */
export type DetailedFailure = Failure & { body?: unknown; detail?: string };
/** `provenNotWritten`: a lookup after an unclear POST proved nothing was written; `redact` takes the token out of a text. */
export type FailureContext = { node: INode; request: ErpRequest; baseUrl: string; retries: number; timeoutMs: number; provenNotWritten: boolean; redact: (text: string) => string };
type Explained = [message: string, description: string];

function unclearNote(failure: Failure, { request, provenNotWritten }: FailureContext): string {
	if (isIdempotent(request.method) || !isUnclear(failure)) return '';
	if (provenNotWritten) return 'A lookup in the ERP showed that nothing was written, so running this item again is safe.';
	return `The ERP may have done it anyway. ${request.doing.unclearAdvice ?? 'The node never repeats a create, send or mark-paid after such a failure, so nothing is written twice: check in the ERP before running this item again.'}`;
}

function explainStatus(failure: DetailedFailure & { kind: 'status' }, ctx: FailureContext): Explained {
	const { action, noun, id } = ctx.request.doing;
	const { statusCode: code, body } = failure;
	// A 422, or a success status whose body says `success: false`: the ERP's own words are all there is.
	const fields = fieldMessages(body);
	const list = fields.map(([field, message]) => `${field}: ${message}`).join('; ');
	if (code < 300) return [`The ERP refused to ${action}: ${list || serverMessage(body) || 'no reason given'}${codeNote(body)}`, `It answered ${code} with success: false, so nothing is taken as done: fix what it names and try again.`];
	if (code === 422 && list) return [`The ERP refused to ${action} (422): ${list}`, `Nothing was saved. Fix ${fields.length === 1 ? 'this field' : 'these fields'} and try again: ${list}${codeNote(body)}.`];
	if (code === 422) return [`The ERP refused to ${action} (422)`, `Nothing was saved: the values were not accepted.${said(body)}`];
	if (code === 400) return [`The ERP could not process the request to ${action} (400)`, `Check the values and filters sent.${said(body)}`];
	if (code === 401) return ['The ERP rejected the API token (401)', `Check the API Token in the ERP API credential: it may be mistyped, expired or revoked.${said(body)}`];
	if (code === 403) return [`The API token is not allowed to ${action} (403)`, `Ask an ERP administrator to give this token access to ${noun}s, or use a token with write access in the ERP API credential.${said(body)}`];
	if (code === 404 && id !== undefined) {
		const urlHint = /\/api\/v1$/.test(shownUrl(ctx.baseUrl)) ? '' : ` The Base URL "${ctx.baseUrl}" does not end with /api/v1: check it in the ERP API credential.`;
		return [`${capitalize(noun)} ${id} was not found (404)`, `Check the ID: the ${noun} may have been deleted, or no ${noun} ever had ID ${id}; search the ${noun}s to find the right ID.${urlHint}`];
	}
	if (code === 404) return [`Nothing answers at ${ctx.baseUrl}${ctx.request.path} (404)`, `Check the Base URL in the ERP API credential: it must end with /api/v1, e.g. https://erp.example.com/api/v1.${said(body)}`];
	if (code === 429) return [`The ERP is still rate-limiting requests${afterRetries(ctx.retries)} (429)`, `Nothing was done. Wait a minute before trying again; if this happens often, lower Concurrency or raise Max Retries in the node Options.${said(body)}`];
	if (code >= 500) return [`The ERP failed with a server error (${code})${afterRetries(ctx.retries)}`, `${unclearNote(failure, ctx) || 'Try again later.'}${said(body)}`];
	return [`The ERP answered ${code} to the request to ${action}`, said(body).trim()];
}

function explainNetwork(failure: DetailedFailure & { kind: 'network' }, ctx: FailureContext): Explained {
	const retried = afterRetries(ctx.retries);
	const maybeDone = unclearNote(failure, ctx) && ` ${unclearNote(failure, ctx)}`;
	const host = URL.canParse(ctx.baseUrl) ? new URL(ctx.baseUrl).host : ctx.baseUrl;
	const detail = failure.detail ?? failure.code;
	if (failure.timedOut) return [`The ERP did not answer within ${ctx.timeoutMs / 1000} s${retried}`, `Raise Timeout in the node Options if the ERP is slow.${maybeDone}`];
	if (failure.code === 'ECONNREFUSED') return [`Could not connect to the ERP at ${host}${retried}: connection refused`, 'Check the Base URL in the ERP API credential and that the ERP is running.'];
	if (failure.code === 'ENOTFOUND') return [`The ERP host "${host}" was not found`, 'Check the Base URL in the ERP API credential for a typo.'];
	if (neverReachedService(failure)) return [`Could not reach the ERP at ${host}${retried}`, `${detail}. Nothing reached the ERP: check the Base URL in the ERP API credential, the network, and that the ERP's certificate is valid.`];
	return [`The connection to the ERP broke before it answered${retried}`, `${detail}.${maybeDone}`];
}

// Each error declares its `failure` (n8n-workflow 2.x's contract, by which n8n 2.x backs a failing poll off; 1.x ignores it).
const rateLimited = (wait?: NamedWait): DeclaredFailure => ({ cause: 'rate-limited', ...(wait ? { retryAfterMs: wait.ms } : {}), ...(wait?.atMs !== undefined ? { resetsAtEpochMs: wait.atMs } : {}) });

function declare(failure: DetailedFailure, request: ErpRequest): DeclaredFailure | undefined {
	// On the way, a host that does not exist, a bad URL or certificate is a wrong Base URL; anything else passes.
	if (failure.kind === 'network') return { cause: retryCannotCure(failure) ? 'configuration-invalid' : 'temporarily-unavailable' };
	const code = failure.statusCode;
	if (code === 429) return rateLimited(failure.namedWait);
	if (code >= 500) return { cause: 'temporarily-unavailable' };
	if (code === 401) return { cause: 'credential-invalid' };
	// 403: the token may not touch this resource; 404 on a list: nothing at the path, the Base URL is not the API.
	if (code === 403 || (code === 404 && request.doing.id === undefined)) return { cause: 'configuration-invalid' };
	// 400, 422, success: false and a 404 with an id: the data is wrong, not the configuration; the contract has no cause.
	return undefined;
}

function apiError(node: INode, [rawMessage, rawDescription]: Explained, redact: (text: string) => string, { itemIndex, httpCode, failure }: { itemIndex?: number; httpCode?: string; failure?: DeclaredFailure }) {
	const message = shownUrl(redact(rawMessage));
	const description = shownUrl(redact(rawDescription)) || undefined;
	// A plain, token-free object as the cause: never the HTTP client's error, which carries the request headers.
	const cause: JsonObject = { message, ...(httpCode ? { httpCode } : {}), ...(description ? { description } : {}) };
	return new NodeApiError(node, cause, { message, description, httpCode, itemIndex, failure });
}

/** The wait the ERP named with this error (a 429's, as `retryAfterMs`), for callers that tell someone when to try again. */
export function retryAfterOf(error: unknown): number | undefined {
	const ms = (error as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
	return typeof ms === 'number' ? ms : undefined;
}

export function failureToError(failure: DetailedFailure, ctx: FailureContext): NodeApiError {
	const explained = failure.kind === 'status' ? explainStatus(failure, ctx) : explainNetwork(failure, ctx);
	// n8n replaces any message naming a network code (ECONNRESET…) with its own sentence: a network failure has no httpCode.
	const httpCode = failure.kind === 'status' ? String(failure.statusCode) : undefined;
	const error = apiError(ctx.node, explained, ctx.redact, { itemIndex: ctx.request.itemIndex, httpCode, failure: declare(failure, ctx.request) });
	const named = failure.kind === 'status' ? failure.namedWait?.ms : undefined;
	return named === undefined ? error : Object.assign(error, { retryAfterMs: named });
}

type RequestContext = Pick<FailureContext, 'node' | 'request' | 'redact'>;
/** The ERP (or another request's 429) asks for a wait longer than this request may still wait. */
export function waitTooLongError(ctx: RequestContext, wait: { ms: number; untilMs: number; budgetMs: number; body?: unknown; namedAtMs?: number; named?: boolean }): NodeApiError {
	const until = `${new Date(wait.untilMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
	const explained: Explained = wait.named === false
		? [`The ERP's rate limit leaves this request no turn before ${duration(wait.ms)} from now`, `The requests waiting before it take the turns the ERP allows until ${until}, longer than this request may wait (${duration(wait.budgetMs)} left), so it stopped at once.`]
		: [`The ERP asks to wait ${duration(wait.ms)} before the next request (429)`, `Try again after ${until} (in ${duration(wait.ms)}). The node waits at most ${duration(wait.budgetMs)} for one request, so it stopped at once instead. If this happens often, lower Concurrency or spread the work over time.${said(wait.body)}`];
	// The turns of the pace are the node's own reckoning: the ERP answered no 429.
	const httpCode = wait.named === false ? undefined : '429';
	const error = apiError(ctx.node, explained, ctx.redact, { itemIndex: ctx.request.itemIndex, httpCode, failure: rateLimited({ ms: wait.ms, atMs: wait.namedAtMs }) });
	return Object.assign(error, { retryAfterMs: wait.ms });
}

/** A success whose `data` is not what the request needs (a record, or a list). */
export function unexpectedSuccessError(ctx: RequestContext, statusCode: number, wanted: 'record' | 'list'): NodeApiError {
	const { method, path, doing, itemIndex } = ctx.request;
	const checkUrl = 'Check that the Base URL points at the ERP API (it must end with /api/v1).';
	const noRecord = `The ERP answered success but sent no ${doing.noun}`;
	const done = doing.id === undefined ? `The ${doing.noun} was probably created` : `The ERP probably did ${doing.action}`;
	const explained: Explained =
		wanted === 'list' ? [`The ERP answered ${path} with something that is not a list`, checkUrl]
		: method !== 'POST' ? [noRecord, `It answered ${statusCode} without the ${doing.noun}. ${checkUrl}`]
		: [noRecord, `${done}: check in the ERP before running this item again, so that nothing is done twice.`];
	// A read answered with something else (an HTML page…) means a wrong Base URL; a create or action answered so probably happened.
	const failure = wanted === 'list' || method !== 'POST' ? ({ cause: 'configuration-invalid' } as const) : undefined;
	return apiError(ctx.node, explained, ctx.redact, { itemIndex, httpCode: String(statusCode), failure });
}

/** A list service that answers the same records whatever page is asked, while its total says there are more. */
export function pageIgnoredError(node: INode, request: Pick<ErpRequest, 'doing' | 'itemIndex'>, walk: { page: number; answeredPage?: number; read: number; total: number }): NodeApiError {
	const nouns = `${request.doing.noun}s`;
	const otherPage = walk.answeredPage !== undefined && walk.answeredPage !== walk.page;
	const answered = otherPage ? `answered page ${walk.answeredPage} when asked for page ${walk.page}` : `sent ${nouns} already read when asked for page ${walk.page}`;
	const explained: Explained = [`The ERP ${answered}: it seems to ignore the page parameter, so the list cannot be read in full`, `${walk.read} of the ${walk.total} ${nouns} the ERP reports were read. Set Limit to at most ${walk.read}, or ask the ERP vendor how its lists are paged (the node sends page and per_page).`];
	// No wait makes the ERP page its lists: the node is configured against a service it cannot read in full.
	return apiError(node, explained, (value) => value, { itemIndex: request.itemIndex, failure: { cause: 'configuration-invalid' } });
}

/** n8n cancelled the execution: nothing more is sent and no wait goes on. */
export const cancelledError = (node: INode, itemIndex?: number) => new NodeOperationError(node, 'The execution was cancelled: no further request was sent to the ERP', { itemIndex });

/** The nodes' own errors as they are, anything else wrapped for n8n to show; no URL in them keeps a user, password or query. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	const own = error instanceof NodeApiError || error instanceof NodeOperationError;
	const shown = own ? error : new NodeOperationError(node, error as Error, itemIndex === undefined ? {} : { itemIndex });
	shown.message = shownUrl(shown.message);
	if (shown.description) shown.description = shownUrl(shown.description);
	return shown;
}
