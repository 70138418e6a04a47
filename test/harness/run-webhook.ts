import { ensureExpressionEngine } from './environment';

import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { buffer } from 'node:stream/consumers';
import { createGunzip, createInflate } from 'node:zlib';
import { parseIncomingMessage } from '@n8n/backend-network';
import { startServer } from '@n8n/backend-network/testing';
import { WebhookContext } from 'n8n-core';
import type {
	IHttpRequestMethods,
	INodeExecutionData,
	INodeType,
	IWebhookDescription,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { jsonParse, NodeHelpers, UnexpectedError, WorkflowConfigurationError } from 'n8n-workflow';

import { waitFor } from '../../sandbox/adminClient';
import { additionalData, buildWorkflow, type HarnessWorkflow, type NodeUnderTest } from './workflow';

export type RunWebhookOptions = Omit<NodeUnderTest, 'continueOnFail' | 'staticData'>;

/** One request the server received and what became of it. */
export interface WebhookCall {
	/** `webhook` for the production URL, `manual` for the test URL. */
	mode: WorkflowExecuteMode;
	request: { headers: IncomingHttpHeaders; rawBody?: Buffer };
	/** The answer the caller got: its status, and its body (parsed JSON, text, or undefined when empty). */
	status: number;
	body: unknown;
	/** The items the trigger would start the workflow with; undefined when it starts nothing. */
	workflowData?: INodeExecutionData[][];
	/** What `webhook()` threw, or a harness finding such as a node that claimed to answer but did not. */
	error?: Error;
}

export interface WebhookHarness {
	/** The production URL, as the editor shows it: `<base>/webhook/<webhookId>/<path>`. */
	url: string;
	/** The test URL: `<base>/webhook-test/<webhookId>/<path>`. */
	testUrl: string;
	/** Every call, in arrival order. */
	calls: WebhookCall[];
	/** Resolves once `count` calls have been recorded (rejects after `timeoutMs`, default 10 s, so a test cannot hang). */
	waitForCalls(count: number, timeoutMs?: number): Promise<WebhookCall[]>;
	close(): Promise<void>;
}

/** The request as n8n hands it to a webhook node: Node's IncomingMessage (as n8n-workflow extends it) plus what Express adds. */
export type WebhookRequest = IncomingMessage & { path: string; query: object; params: object; body?: unknown };

/** A trigger node's webhook as n8n registers it: `path` is `<webhookId>/<path>`, after `/webhook/` or `/webhook-test/`. */
export interface WebhookEndpoint extends HarnessWorkflow {
	description: IWebhookDescription;
	webhook: NonNullable<INodeType['webhook']>;
	httpMethod: IHttpRequestMethods;
	path: string;
}

/**
 * The part of Express's Response that webhook nodes use (status, setHeader, json, send, end). It collects the answer
 * instead of writing it, so that a call is recorded before its caller sees the answer; a node using another Express
 * method fails with a TypeError, which the harness reports.
 */
export class WebhookResponse {
	statusCode = 200;

	readonly headers: OutgoingHttpHeaders = {};

	body?: string;

	get headersSent(): boolean {
		return this.body !== undefined;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	json(body: unknown): this {
		this.headers['content-type'] ??= 'application/json; charset=utf-8';
		return this.end(JSON.stringify(body));
	}

	/** Express's send for what n8n and nodes send: a string as text/html, anything else as JSON. */
	send(body: unknown): this {
		if (typeof body !== 'string') return this.json(body);
		this.headers['content-type'] ??= 'text/html; charset=utf-8';
		return this.end(body);
	}

	end(body = ''): this {
		this.body ??= body;
		return this;
	}

	/** The body as a caller reads it: JSON when the answer says so, else text; undefined when empty. */
	get content(): unknown {
		if (!this.body) return undefined;
		if (!String(this.headers['content-type']).includes('json')) return this.body;
		try {
			return JSON.parse(this.body) as unknown;
		} catch {
			return this.body;
		}
	}
}

const DEFAULT_WEBHOOK_ID = '5f0c4a7e-2b1d-4c3a-9e8f-0a1b2c3d4e5f';
/** n8n's N8N_PAYLOAD_SIZE_MAX default. */
const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;
const GENERIC_FAILURE = 'There was a problem executing the workflow';

/** An answer as n8n's ResponseHelper.sendErrorResponse writes it. */
const n8nError = (status: number, message: string, code = 0, hint?: string) =>
	new WebhookResponse().status(status).json({ code, message, hint });

/** A field of the webhook description, evaluated on the node as n8n's WebhookService does. */
function describe(endpoint: Omit<WebhookEndpoint, 'httpMethod' | 'path'>, field: string, fallback?: string | number | boolean): unknown {
	const { workflow, node, description } = endpoint;
	return workflow.expression.getComplexParameterValue(node, description[field], 'internal', {}, undefined, fallback);
}

/** The trigger node in its workflow, with its `default` webhook as n8n registers it. */
export function webhookEndpoint(options: RunWebhookOptions): WebhookEndpoint {
	const harness = buildWorkflow({ ...options, webhookId: options.webhookId ?? DEFAULT_WEBHOOK_ID });
	const { description: nodeDescription, webhook } = options.nodeType;
	const description = nodeDescription.webhooks?.find((candidate) => candidate.name === 'default');
	if (description === undefined || webhook === undefined) {
		throw new UnexpectedError(`Node "${nodeDescription.name}" has no "default" webhook`);
	}
	const endpoint = { ...harness, description, webhook };
	const path = String(describe(endpoint, 'path') ?? '').replace(/^\/+|\/+$/g, '');
	const isFullPath = describe(endpoint, 'isFullPath', false) === true;
	return {
		...endpoint,
		httpMethod: String(describe(endpoint, 'httpMethod', 'GET')).toUpperCase() as IHttpRequestMethods,
		path: NodeHelpers.getNodeWebhookPath(harness.workflow.id, harness.node, path, isFullPath),
	};
}

/**
 * n8n's WebhookService.runWebhook: `webhook()` on n8n-core's WebhookContext for one request, inside an expression
 * isolate. What the node answers itself is collected in `response`.
 */
export async function callWebhook(
	endpoint: WebhookEndpoint,
	request: WebhookRequest,
	response: WebhookResponse,
	mode: WorkflowExecuteMode = 'webhook',
	instanceUrl?: string,
): Promise<IWebhookResponseData> {
	const { workflow, node, description, webhook, httpMethod, path } = endpoint;
	const data = { ...additionalData(endpoint, instanceUrl), httpRequest: request, httpResponse: response };
	const context = new WebhookContext(workflow, node, data, mode, {
		httpMethod,
		node: node.name,
		path,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
		webhookId: node.webhookId,
		isTest: mode === 'manual',
	}, [], null);
	return await workflow.expression.withIsolate(async () => await webhook.call(context));
}

/** n8n's rawBodyReader middleware: content type and encoding, and a raw body read on demand (gzip and deflate inflated). */
function prepareRequest(message: IncomingMessage, url: URL): WebhookRequest {
	parseIncomingMessage(message);
	const request = Object.assign(message, { path: url.pathname, query: parseQuery(url.search.slice(1)), params: {} });
	const inflate = { gzip: createGunzip, deflate: createInflate }[String(message.headers['content-encoding'])];
	request.readRawBody = async () => {
		request.rawBody ??= await buffer(inflate ? message.pipe(inflate()) : message);
	};
	return request;
}

/**
 * n8n's body parsing for a version 1 node, before the node runs: a body over 16 MiB is answered 500 (raw-body's
 * error is no ResponseError), JSON, url-encoded and text bodies are parsed, one that does not parse is answered
 * 422. XML is not parsed here (n8n uses xml2js), multipart not read at all (n8n's form parser reads it): the node
 * then gets no body. Resolves to n8n's answer when it refuses the body.
 */
async function parseBody(request: WebhookRequest): Promise<WebhookResponse | undefined> {
	const { contentType, encoding } = request;
	if (contentType?.startsWith('multipart/')) return undefined;
	const read = await request.readRawBody().then(() => request.rawBody.length <= PAYLOAD_SIZE_MAX, () => false);
	if (!read) return n8nError(500, GENERIC_FAILURE);
	const text = request.rawBody.toString(encoding);
	const unmarked = text.replace(/^\uFEFF/, '');
	try {
		if (!text) return undefined;
		if (contentType === 'application/json') request.body = jsonParse(unmarked);
		if (contentType === 'application/x-www-form-urlencoded') request.body = parseQuery(unmarked, undefined, undefined, { maxKeys: 1000 });
		if (contentType === 'text/plain') request.body = text;
	} catch (error) {
		return n8nError(422, 'Failed to parse request body', 422, (error as Error).message);
	}
	return undefined;
}

type Outcome = Pick<WebhookCall, 'workflowData' | 'error'> & { answer: WebhookResponse };

/** A harness finding: the node did what n8n would not answer as the test expects. */
const finding = (message: string, workflowData?: INodeExecutionData[][]): Outcome => ({
	answer: n8nError(500, message),
	workflowData,
	error: new UnexpectedError(message),
});

/** n8n's executeWebhook up to the start of the workflow: parse the body, run `webhook()`, decide the answer. */
async function execute(endpoint: WebhookEndpoint, request: WebhookRequest, mode: WorkflowExecuteMode, baseUrl: string): Promise<Outcome> {
	const refusal = await parseBody(request);
	if (refusal) return { answer: refusal };
	const responseMode = describe(endpoint, 'responseMode', 'onReceived');
	const responseCode = Number(describe(endpoint, 'responseCode', 200));
	const responseData = describe(endpoint, 'responseData', 'firstEntryJson');

	const response = new WebhookResponse();
	let result: IWebhookResponseData;
	try {
		result = await callWebhook(endpoint, request, response, mode, baseUrl);
	} catch (error) {
		// n8n's _privateGetWebhookErrorMessage: a node's own message only for configuration errors.
		const message =
			error instanceof WorkflowConfigurationError ? error.message : 'Workflow Webhook Error: Workflow could not be started!';
		return { answer: response.headersSent ? response : n8nError(500, message), error: error as Error };
	}

	const { workflowData, webhookResponse, noWebhookResponse } = result;
	if (noWebhookResponse === true) {
		if (response.headersSent) return { answer: response, workflowData };
		return finding('webhook() returned noWebhookResponse but did not answer the request', workflowData);
	}
	// Only undefined selects n8n's default: a node may answer null.
	const answer = (fallback: string) => (webhookResponse !== undefined ? webhookResponse : { message: fallback });
	if (workflowData === undefined) return { answer: response.status(responseCode).send(answer('Webhook call received')) };
	if (responseMode !== 'onReceived') {
		return finding(`The harness answers only "onReceived" webhooks, not "${String(responseMode)}"`, workflowData);
	}
	// n8n's extractWebhookOnReceivedResponse: what "Respond: Immediately" answers once a workflow starts.
	const body = responseData === 'noData' ? undefined : responseData || answer('Workflow was started');
	return { answer: response.status(responseCode).send(body), workflowData };
}

/**
 * Serves a trigger node's webhook on a local port the way n8n's webhook server does: it routes the production and
 * test URLs (404 for another path or method), reads and parses the body like n8n's middlewares, calls `webhook()`
 * with n8n-core's WebhookContext and answers like n8n's executeWebhook (the node's own answer with
 * `noWebhookResponse`, else `webhookResponse` or n8n's default). The workflow itself is not run; each call records
 * the items it would have started, before its answer is sent.
 */
export async function runWebhook(options: RunWebhookOptions): Promise<WebhookHarness> {
	await ensureExpressionEngine();
	const endpoint = webhookEndpoint(options);
	const calls: WebhookCall[] = [];

	async function handle(message: IncomingMessage, socket: ServerResponse): Promise<void> {
		const method = message.method ?? 'GET';
		const url = new URL(message.url ?? '/', server.url);
		const [, prefix, requested = ''] = /^\/(webhook|webhook-test)\/(.*?)\/*$/.exec(url.pathname) ?? [];
		let answer: WebhookResponse;
		if (prefix === undefined || decodeURIComponent(requested) !== endpoint.path) {
			answer = n8nError(404, `The requested webhook "${method} ${requested}" is not registered.`, 404);
		} else if (method !== endpoint.httpMethod) {
			const expected = endpoint.httpMethod;
			answer = n8nError(404, `This webhook is not registered for ${method} requests. Did you mean to make a ${expected} request?`, 404);
		} else {
			const mode = prefix === 'webhook' ? 'webhook' : 'manual';
			const request = prepareRequest(message, url);
			const outcome = await execute(endpoint, request, mode, server.url).catch(
				(error: Error): Outcome => ({ answer: n8nError(500, GENERIC_FAILURE), error }),
			);
			answer = outcome.answer;
			calls.push({
				mode,
				request: { headers: request.headers, rawBody: request.rawBody as Buffer | undefined },
				status: answer.statusCode,
				body: answer.content,
				workflowData: outcome.workflowData,
				error: outcome.error,
			});
		}
		message.resume();
		socket.writeHead(answer.statusCode, answer.headers).end(answer.body);
	}

	const server = await startServer((message, socket) => void handle(message, socket));
	const webhookUrl = (prefix: string) => `${server.url}/${prefix}/${endpoint.path}`;
	return {
		url: webhookUrl('webhook'),
		testUrl: webhookUrl('webhook-test'),
		calls,
		async waitForCalls(count, timeoutMs = 10_000) {
			await waitFor(() => calls.length >= count, timeoutMs).catch(() => {
				throw new Error(`Expected ${count} webhook call(s) within ${timeoutMs} ms, got ${calls.length}`);
			});
			return calls.slice(0, count);
		},
		close: server.close,
	};
}
