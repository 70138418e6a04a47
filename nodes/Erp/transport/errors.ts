import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { hasVersionSegment } from './baseUrl';
import type { Failure } from './retryPolicy';
import { isAmbiguous } from './retryPolicy';
import { fieldMessages, serverMessage } from './serverMessage';
import { actionPhrase, capitalize, targetOf } from './target';
import type { ErpRequest } from './types';

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
