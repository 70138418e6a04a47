import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from './retryPolicy';
import { isUnclear, neverReachedService } from './retryPolicy';
import type { ErpRequest, HttpMethod } from './types';
import { isObject } from './types';

/**
 * Every failure the user sees, worded once: what went wrong, and what to do about it. The ERP's own words
 * are read from its answer whatever shape it has; the API token never appears in any of it.
 */

// ─── What a request is about, read from its path ────────────────────────────────────────────────────────

const NOUNS: Record<string, string> = {
	contacts: 'contact',
	invoices: 'invoice',
	products: 'product',
	employees: 'employee',
};

/** `/invoices/7/send` → invoice 7, send. */
interface Target {
	noun: string;
	id?: string;
	action?: string;
}

function targetOf(path: string): Target {
	const [collection = '', id, action] = path.split('?')[0].split('/').filter(Boolean);
	return { noun: NOUNS[collection] ?? collection, id, action };
}

export function capitalize(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "create contacts", "read invoice 7", "mark invoice 7 as paid", … */
function actionPhrase(method: HttpMethod, target: Target): string {
	const one = `${target.noun} ${target.id ?? ''}`.trim();
	if (target.action === 'send') return `send ${one}`;
	if (target.action === 'mark-paid') return `mark ${one} as paid`;
	if (target.action === 'stock') return `read the stock of ${one}`;
	if (target.action === 'payroll') return `read the payroll of ${one}`;
	if (!target.id) return method === 'POST' ? `create ${target.noun}s` : `list ${target.noun}s`;
	if (method === 'PUT') return `update ${one}`;
	if (method === 'DELETE') return `delete ${one}`;
	return `read ${one}`;
}

/** "create the contact" for a create, else the action phrase. */
function refusedPhrase(request: ErpRequest, target: Target): string {
	return request.method === 'POST' && !target.id ? `create the ${target.noun}` : actionPhrase(request.method, target);
}

/** Whether the Base URL ends with the version segment the API document puts in every base address. */
function hasVersionSegment(baseUrl: string): boolean {
	return /\/api\/v1$/.test(baseUrl);
}

// ─── What the ERP said, in any shape ────────────────────────────────────────────────────────────────────

function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (Array.isArray(value)) {
		const parts = value.map(text).filter((part): part is string => part !== undefined);
		return parts.length ? parts.join(', ') : undefined;
	}
	return undefined;
}

function fromHtml(html: string): string {
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
	const stripped = html
		.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return `an HTML page: ${title || stripped.slice(0, 120) || '(empty)'}`;
}

function pairsFrom(candidate: unknown): Array<[string, string]> {
	if (Array.isArray(candidate)) {
		return candidate
			.filter(isObject)
			.map((entry): [string, string] | undefined => {
				const field = text(entry.field) ?? text(entry.path) ?? text(entry.name);
				const message = text(entry.message) ?? text(entry.msg);
				return field && message ? [field, message] : undefined;
			})
			.filter((pair): pair is [string, string] => pair !== undefined);
	}
	if (!isObject(candidate)) return [];
	return Object.entries(candidate)
		.map(([field, messages]): [string, string] | undefined => {
			const message = text(messages);
			return message ? [field, message] : undefined;
		})
		.filter((pair): pair is [string, string] => pair !== undefined);
}

/**
 * Field → messages, from any of the usual validation-error shapes: `{error: {fields | details}}`, `{fields}`,
 * `{errors: {field: [...]}}`, `{errors: [{field, message}]}`.
 */
export function fieldMessages(body: unknown): Array<[string, string]> {
	if (!isObject(body)) return [];
	const error = isObject(body.error) ? body.error : {};
	for (const candidate of [error.fields, error.details, body.fields, body.errors]) {
		const pairs = pairsFrom(candidate);
		if (pairs.length) return pairs;
	}
	return [];
}

/**
 * The service's own sentence about the failure, or undefined when it gave none: `{error: {message}}`,
 * `{message}`, `{error: "…"}`, `{errors: [...]}`, `{detail}`, an HTML page, plain text.
 */
export function serverMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const trimmed = body.trim();
		if (trimmed === '') return undefined;
		if (/^\s*</.test(trimmed)) return fromHtml(trimmed);
		return trimmed.slice(0, 300);
	}
	if (!isObject(body)) return undefined;
	const error = body.error;
	return (
		(isObject(error) ? (text(error.message) ?? text(error.detail)) : text(error)) ??
		text(body.message) ??
		text(body.detail) ??
		text(body.title) ??
		text(body.error_description) ??
		(Array.isArray(body.errors) ? text(body.errors) : undefined)
	);
}

/** The ERP's machine-readable error code (`error.code`, `code`, `error_code`), when it sent one. */
function errorCode(body: unknown): string | undefined {
	if (!isObject(body)) return undefined;
	const candidates = [isObject(body.error) ? body.error.code : undefined, body.code, body.error_code];
	const code = candidates.find((value) => typeof value === 'string' || typeof value === 'number');
	return code === undefined ? undefined : String(code);
}

/** " (error code X)" when the ERP sent a machine-readable code. */
function codeNote(body: unknown): string {
	const code = errorCode(body);
	return code ? ` (error code ${code})` : '';
}

function said(body: unknown): string {
	const message = serverMessage(body);
	if (message) return ` The ERP said: ${message}${codeNote(body)}`;
	return codeNote(body) ? ` The ERP's error code: ${errorCode(body)}` : '';
}

// ─── Phrases ────────────────────────────────────────────────────────────────────────────────────────────

const MAYBE_DONE =
	'The ERP may have done it anyway. The node never repeats a create, send or mark-paid after such a failure, ' +
	'so nothing is written twice: check in the ERP before running this item again.';

const NOT_WRITTEN = 'A lookup in the ERP showed that nothing was written, so running this item again is safe.';

function afterRetries(retries: number): string {
	return retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
}

/** "45 s", "3 min 5 s", "1 h 2 min". */
function duration(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	const h = Math.floor(seconds / 3600);
	const min = Math.floor((seconds % 3600) / 60);
	const s = seconds % 60;
	if (h > 0) return min > 0 ? `${h} h ${min} min` : `${h} h`;
	if (min > 0) return s > 0 ? `${min} min ${s} s` : `${min} min`;
	return `${s} s`;
}

/** "2026-11-22 11:00:00 UTC". */
function clockTime(timestampMs: number): string {
	return `${new Date(timestampMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

// ─── Failures of a request ──────────────────────────────────────────────────────────────────────────────

/** A failed attempt with what the service (or the network) said about it. */
export type DetailedFailure = Failure & { body?: unknown; detail?: string };

export interface FailureContext {
	node: INode;
	request: ErpRequest;
	baseUrl: string;
	retries: number;
	timeoutMs: number;
	/** A lookup after an unclear POST failure proved that nothing was written. */
	provenNotWritten?: boolean;
	/** Removes secrets (the API token) from any text shown to the user. */
	redact: (text: string) => string;
}

interface Explained {
	message: string;
	description: string;
}

function unclearNote(failure: Failure, ctx: FailureContext): string {
	if (ctx.request.method !== 'POST' || !isUnclear(failure)) return '';
	return ctx.provenNotWritten ? NOT_WRITTEN : MAYBE_DONE;
}

/** A 422, or a success status whose body says `success: false`: the ERP's own words are all there is. */
function explainRefusal(code: number, body: unknown, ctx: FailureContext, target: Target): Explained {
	const fields = fieldMessages(body);
	const list = fields.map(([field, message]) => `${field}: ${message}`).join('; ');
	const refused = refusedPhrase(ctx.request, target);
	if (code < 300) {
		return {
			message: `The ERP refused to ${refused}: ${list || serverMessage(body) || 'no reason given'}${codeNote(body)}`,
			description: `It answered ${code} with success: false, so nothing is taken as done: fix what it names and run the item again.`,
		};
	}
	return {
		message: `The ERP refused to ${refused} (422)${list ? `: ${list}` : ''}`,
		description: list
			? `Fix ${fields.length === 1 ? 'this field' : 'these fields'} and run the item again: ${list}${codeNote(body)}.`
			: `The values were not accepted.${said(body)}`,
	};
}

function explainStatus(failure: DetailedFailure & { kind: 'status' }, ctx: FailureContext): Explained {
	const { request, retries } = ctx;
	const target = targetOf(request.path);
	const one = capitalize(`${target.noun} ${target.id ?? ''}`.trim());
	const code = failure.statusCode;
	if (code < 300 || code === 422) return explainRefusal(code, failure.body, ctx, target);
	switch (code) {
		case 400:
			return {
				message: `The ERP could not process the request to ${actionPhrase(request.method, target)} (400)`,
				description: `Check the values and filters sent.${said(failure.body)}`,
			};
		case 401:
			return {
				message: 'The ERP rejected the API token (401)',
				description: `Check the API Token in the ERP API credential: it may be mistyped, expired or revoked.${said(failure.body)}`,
			};
		case 403:
			return {
				message: `The API token is not allowed to ${actionPhrase(request.method, target)} (403)`,
				description: `Ask an ERP administrator to give this token access to ${target.noun}s, or use a token with write access in the ERP API credential.${said(failure.body)}`,
			};
		case 404: {
			const urlHint = hasVersionSegment(ctx.baseUrl)
				? ''
				: ` The Base URL "${ctx.baseUrl}" does not end with /api/v1: check it in the ERP API credential.`;
			return target.id
				? {
						message: `${one} was not found (404)`,
						description: `Check the ID: the ${target.noun} may have been deleted or belong to another ERP account.${urlHint}`,
					}
				: {
						message: `Nothing answers at ${ctx.baseUrl}${request.path} (404)`,
						description: `Check the Base URL in the ERP API credential: it must end with /api/v1, e.g. https://erp.example.com/api/v1.${said(failure.body)}`,
					};
		}
		case 429:
			return {
				message: `The ERP is still rate-limiting requests${afterRetries(retries)} (429)`,
				description:
					'Lower Concurrency or raise Max Retries in the node Options, or spread the work over time.' +
					said(failure.body),
			};
		default:
			if (code >= 500) {
				return {
					message: `The ERP failed with a server error (${code})${afterRetries(retries)}`,
					description: `${unclearNote(failure, ctx) || 'Try again later.'}${said(failure.body)}`,
				};
			}
			return {
				message: `The ERP answered ${code} to the request to ${actionPhrase(request.method, target)}`,
				description: said(failure.body).trim(),
			};
	}
}

function explainNetwork(failure: DetailedFailure & { kind: 'network' }, ctx: FailureContext): Explained {
	const { retries } = ctx;
	const note = unclearNote(failure, ctx);
	const maybeDone = note ? ` ${note}` : '';
	const host = (() => {
		try {
			return new URL(ctx.baseUrl).host;
		} catch {
			return ctx.baseUrl;
		}
	})();
	if (failure.timedOut) {
		return {
			message: `The ERP did not answer within ${ctx.timeoutMs / 1000} s${afterRetries(retries)}`,
			description: `Raise Timeout in the node Options if the ERP is slow.${maybeDone}`,
		};
	}
	switch (failure.code) {
		case 'ECONNREFUSED':
			return {
				message: `Could not connect to the ERP at ${host}${afterRetries(retries)}: connection refused`,
				description: 'Check the Base URL in the ERP API credential and that the ERP is running.',
			};
		case 'ENOTFOUND':
			return {
				message: `The ERP host "${host}" was not found`,
				description: 'Check the Base URL in the ERP API credential for a typo.',
			};
		default:
			if (neverReachedService(failure)) {
				return {
					message: `Could not reach the ERP at ${host}${afterRetries(retries)}`,
					description: `${failure.detail ?? failure.code}. Nothing reached the ERP: check the Base URL in the ERP API credential, the network, and that the ERP's certificate is valid.`,
				};
			}
			return {
				message: `The connection to the ERP broke before it answered${afterRetries(retries)}`,
				description: `${failure.detail ?? failure.code}.${maybeDone}`,
			};
	}
}

function apiError(node: INode, explained: Explained, redact: (text: string) => string, itemIndex?: number, httpCode?: string) {
	const message = redact(explained.message);
	const description = redact(explained.description) || undefined;
	// A plain, token-free object as the cause: never the HTTP client's error, which carries the request headers.
	const cause: JsonObject = { message, ...(httpCode ? { httpCode } : {}), ...(description ? { description } : {}) };
	return new NodeApiError(node, cause, { message, description, httpCode, itemIndex });
}

export function failureToError(failure: DetailedFailure, ctx: FailureContext): NodeApiError {
	const explained = failure.kind === 'status' ? explainStatus(failure, ctx) : explainNetwork(failure, ctx);
	// n8n replaces any message naming a network code (ECONNRESET…) with its own generic sentence, so network
	// failures carry no httpCode and keep their code in the description only.
	const httpCode = failure.kind === 'status' ? String(failure.statusCode) : undefined;
	return apiError(ctx.node, explained, ctx.redact, ctx.request.itemIndex, httpCode);
}

/** The ERP (or another request's 429) asks for a wait longer than this request may still wait. */
export function waitTooLongError(
	ctx: Pick<FailureContext, 'node' | 'request' | 'redact'>,
	wait: { ms: number; untilMs: number; budgetMs: number; body?: unknown },
): NodeApiError {
	const explained = {
		message: `The ERP asks to wait ${duration(wait.ms)} before the next request (429)`,
		description:
			`Try again after ${clockTime(wait.untilMs)} (in ${duration(wait.ms)}). The node waits at most ` +
			`${duration(wait.budgetMs)} for one request, so it stopped at once instead. If this happens often, lower ` +
			`Concurrency or spread the work over time.${said(wait.body)}`,
	};
	return apiError(ctx.node, explained, ctx.redact, ctx.request.itemIndex, '429');
}

/** A success whose `data` is not what the request needs (a record, or a list). */
export function unexpectedSuccessError(
	ctx: Pick<FailureContext, 'node' | 'request' | 'redact'>,
	statusCode: number,
	wanted: 'record' | 'list',
): NodeApiError {
	const { request } = ctx;
	const target = targetOf(request.path);
	const checkUrl = 'Check that the Base URL points at the ERP API (it must end with /api/v1).';
	let explained: Explained;
	if (wanted === 'list') {
		explained = { message: `The ERP answered ${request.path} with something that is not a list`, description: checkUrl };
	} else if (request.method === 'POST') {
		const done = target.id ? `The ERP probably did ${actionPhrase(request.method, target)}` : `The ${target.noun} was probably created`;
		explained = {
			message: `The ERP answered success but sent no ${target.noun}`,
			description: `${done}: check in the ERP before running this item again, so that nothing is done twice.`,
		};
	} else {
		explained = { message: `The ERP answered success but sent no ${target.noun}`, description: `It answered ${statusCode} without the ${target.noun}. ${checkUrl}` };
	}
	return apiError(ctx.node, explained, ctx.redact, request.itemIndex, String(statusCode));
}

/** A list service that answers the same records whatever page is asked, while its total says there are more. */
export function pageIgnoredError(
	node: INode,
	request: { path: string; itemIndex: number },
	walk: { page: number; answeredPage?: number; read: number; total: number },
): NodeApiError {
	const noun = targetOf(request.path).noun;
	const answered =
		walk.answeredPage !== undefined && walk.answeredPage !== walk.page
			? `answered page ${walk.answeredPage} when asked for page ${walk.page}`
			: `sent ${noun}s already read when asked for page ${walk.page}`;
	const explained = {
		message: `The ERP ${answered}: it seems to ignore the page parameter, so the list cannot be read in full`,
		description:
			`${walk.read} of the ${walk.total} ${noun}s the ERP reports were read. Set Limit to at most ${walk.read}, or ` +
			'ask the ERP vendor how its lists are paged (the node sends page and per_page).',
	};
	return apiError(node, explained, (value) => value, request.itemIndex);
}

/** n8n cancelled the execution: nothing more is sent and no wait goes on. */
export function cancelledError(node: INode, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(node, 'The execution was cancelled: no further request was sent to the ERP', { itemIndex });
}

/** The nodes' own errors are thrown as they are (they already name their item); anything else is wrapped so n8n can show it. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, itemIndex === undefined ? {} : { itemIndex });
}
