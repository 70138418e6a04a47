import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Failure } from './retryPolicy';
import { isAmbiguous } from './retryPolicy';
import type { ErpRequest, HttpMethod } from './types';

const NOUNS: Record<string, string> = {
	contacts: 'contact',
	invoices: 'invoice',
	products: 'product',
	employees: 'employee',
};

/** What a request is about, read from its path, for error messages: `/invoices/7/send` → invoice 7, send. */
export interface Target {
	noun: string;
	id?: string;
	action?: string;
}

export function targetOf(path: string): Target {
	const [collection = '', id, action] = path.split('?')[0].split('/').filter(Boolean);
	return { noun: NOUNS[collection] ?? collection, id, action };
}

export function capitalize(word: string): string {
	return word.charAt(0).toUpperCase() + word.slice(1);
}

/** "create contacts", "read invoice 7", "mark invoice 7 as paid", … */
export function actionPhrase(method: HttpMethod, target: Target): string {
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

/** Whether the Base URL ends with the version segment the API document puts in every base address. */
export function hasVersionSegment(baseUrl: string): boolean {
	return /\/api\/v1$/.test(baseUrl);
}

/**
 * Reads what a failed answer says, whatever its shape: the documented-by-us
 * `{error: {message, fields}}`, or `{message}`, `{error: "…"}`, `{errors: [...]}`, `{errors: {field: [...]}}`,
 * `{detail}`, an HTML page, plain text, or nothing.
 */

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/** Field → messages, from any of the usual validation-error shapes. */
export function fieldMessages(body: unknown): Array<[string, string]> {
	if (!isObject(body)) return [];
	const candidates: unknown[] = [
		isObject(body.error) ? body.error.fields : undefined,
		isObject(body.error) ? body.error.details : undefined,
		body.fields,
		body.errors,
	];
	for (const candidate of candidates) {
		if (Array.isArray(candidate)) {
			const pairs = candidate
				.filter(isObject)
				.map((entry): [string, string] | undefined => {
					const field = text(entry.field) ?? text(entry.path) ?? text(entry.name);
					const message = text(entry.message) ?? text(entry.msg);
					return field && message ? [field, message] : undefined;
				})
				.filter((pair): pair is [string, string] => pair !== undefined);
			if (pairs.length) return pairs;
		} else if (isObject(candidate)) {
			const pairs = Object.entries(candidate)
				.map(([field, messages]): [string, string] | undefined => {
					const message = text(messages);
					return message ? [field, message] : undefined;
				})
				.filter((pair): pair is [string, string] => pair !== undefined);
			if (pairs.length) return pairs;
		}
	}
	return [];
}

/** The service's own sentence about the failure, or undefined when it gave none. */
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

/** A failed attempt with what the service (or the network) said about it. */
export type DetailedFailure = Failure & { body?: unknown; detail?: string };

export interface FailureContext {
	node: INode;
	request: ErpRequest;
	baseUrl: string;
	retries: number;
	timeoutMs: number;
	/** Removes secrets (the API token) from any text shown to the user. */
	redact: (text: string) => string;
}

const MAYBE_DONE =
	'The ERP may have done it anyway. The node never repeats a create, send or mark-paid after such a failure, ' +
	'so nothing is written twice: check in the ERP before running this item again.';

function afterRetries(retries: number): string {
	return retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
}

function said(body: unknown): string {
	const message = serverMessage(body);
	return message ? ` The ERP said: ${message}` : '';
}

function explainStatus(failure: DetailedFailure & { kind: 'status' }, ctx: FailureContext) {
	const { request, retries } = ctx;
	const target = targetOf(request.path);
	const one = capitalize(`${target.noun} ${target.id ?? ''}`.trim());
	const code = failure.statusCode;
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
		case 422: {
			const fields = fieldMessages(failure.body);
			const list = fields.map(([field, message]) => `${field}: ${message}`).join('; ');
			const refused = request.method === 'POST' && !target.id ? `create the ${target.noun}` : actionPhrase(request.method, target);
			return {
				message: `The ERP refused to ${refused} (422)${list ? `: ${list}` : ''}`,
				description: list
					? `Fix ${fields.length === 1 ? 'this field' : 'these fields'} and run the item again: ${list}.`
					: `The values were not accepted.${said(failure.body)}`,
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
					description: `${isAmbiguous(failure) && request.method === 'POST' ? MAYBE_DONE : 'Try again later.'}${said(failure.body)}`,
				};
			}
			return {
				message: `The ERP answered ${code} to the request to ${actionPhrase(request.method, target)}`,
				description: said(failure.body).trim(),
			};
	}
}

function explainNetwork(failure: DetailedFailure & { kind: 'network' }, ctx: FailureContext) {
	const { request, retries } = ctx;
	const maybeDone = request.method === 'POST' && isAmbiguous(failure) ? ` ${MAYBE_DONE}` : '';
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
			return {
				message: `The connection to the ERP broke before it answered${afterRetries(retries)}`,
				description: `${failure.detail ?? failure.code}.${maybeDone}`,
			};
	}
}

export function failureToError(failure: DetailedFailure, ctx: FailureContext): NodeApiError {
	const explained = failure.kind === 'status' ? explainStatus(failure, ctx) : explainNetwork(failure, ctx);
	const message = ctx.redact(explained.message);
	const description = ctx.redact(explained.description) || undefined;
	// n8n replaces any message naming a network code (ECONNRESET…) with its own generic sentence, so network
	// failures carry no httpCode and keep their code in the description only.
	const httpCode = failure.kind === 'status' ? String(failure.statusCode) : undefined;
	// A plain, token-free object as the cause: never the HTTP client's error, which carries the request headers.
	const cause: JsonObject = { message, ...(httpCode ? { httpCode } : {}), ...(description ? { description } : {}) };
	return new NodeApiError(ctx.node, cause, {
		message,
		description,
		httpCode,
		itemIndex: ctx.request.itemIndex,
	});
}
