import { returnJsonArray } from 'n8n-core';
import type { IDataObject, INode, INodeParameters, IWebhookFunctions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ErpTrigger } from '../../../nodes/ErpTrigger/ErpTrigger.node';

export interface FakeRequest {
	/** Node parameters as the user set them; n8n's defaults fill the rest. */
	parameters?: INodeParameters;
	headers?: Record<string, string>;
	/** The raw body; a string is UTF-8 encoded. Default: none (as for a multipart request). */
	body?: string | Buffer;
	/** The Webhook Signing Secret of the ERP API credential; undefined: no credential attached. */
	secret?: string;
}

export interface FakeWebhook {
	context: IWebhookFunctions;
	/** What the node answered itself through the response object. */
	answer: { status?: number; body?: unknown };
	credentialRequests: string[];
}

/**
 * A webhook context for unit tests of the pure rules: n8n's parameter defaults, the request's headers and raw body,
 * a recording response object and the credential. The in-process tests (test/trigger) use n8n-core's real one.
 */
export function fakeWebhookContext(request: FakeRequest = {}): FakeWebhook {
	const { description } = new ErpTrigger();
	const node: INode = {
		id: 'trigger',
		name: 'ERP Trigger',
		type: 'n8n-nodes-erp.erpTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	node.parameters =
		NodeHelpers.getNodeParameters(description.properties, request.parameters ?? {}, true, false, node, description) ??
		{};

	const answer: FakeWebhook['answer'] = {};
	const response = {
		status(code: number) {
			answer.status = code;
			return response;
		},
		json(body: unknown) {
			answer.body = body;
			return response;
		},
	};
	const headers = Object.fromEntries(
		Object.entries({ 'content-type': 'application/json', ...request.headers }).map(([key, value]) => [
			key.toLowerCase(),
			value,
		]),
	);
	const rawBody = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
	const credentialRequests: string[] = [];

	const context = {
		getNode: () => node,
		getNodeParameter: (name: string, fallback?: unknown) => {
			const value = name.split('.').reduce<unknown>((at, key) => (at as IDataObject | undefined)?.[key], node.parameters);
			if (value === undefined && fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
			return value ?? fallback;
		},
		getHeaderData: () => headers,
		getRequestObject: () => ({ headers, rawBody }),
		getResponseObject: () => response,
		getCredentials: async (type: string) => {
			credentialRequests.push(type);
			if (request.secret === undefined) throw new Error('Node does not have any credentials set');
			return { baseUrl: 'https://erp.example.com/api/v1', apiToken: 'token', webhookSecret: request.secret };
		},
		helpers: { returnJsonArray },
	} as unknown as IWebhookFunctions;

	return { context, answer, credentialRequests };
}

/** A delivery body as the ERP sends it. */
export function deliveryBody(overrides: IDataObject = {}): string {
	return JSON.stringify({
		event: 'invoice.paid',
		timestamp: '2026-11-22T10:15:30.000Z',
		data: { invoice_id: 7, amount: 119.5, currency: 'EUR' },
		...overrides,
	});
}
