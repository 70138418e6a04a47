import { ensureExpressionEngine } from './environment';

import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { buffer } from 'node:stream/consumers';
import { createGunzip, createInflate } from 'node:zlib';
import { parseIncomingMessage } from '@n8n/backend-network';
import { startServer } from '@n8n/backend-network/testing';
import { WebhookContext } from 'n8n-core';
import type { IHttpRequestMethods, INodeExecutionData, INodeType, IWebhookDescription, IWebhookResponseData, WorkflowExecuteMode } from 'n8n-workflow';
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
	/** When the caller got its answer, and when `webhook()` returned (epoch ms): a node may answer before it returns. */
	answeredAt: number;
	returnedAt?: number;
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

/** The request n8n hands a webhook node: IncomingMessage (as n8n-workflow extends it) plus what Express adds. */
export type WebhookRequest = IncomingMessage & { path: string; query: object; params: object; body?: unknown };

/** A trigger node's webhook as n8n registers it: `path` is `<webhookId>/<path>`, after `/webhook/` or `/webhook-test/`. */
export interface WebhookEndpoint extends HarnessWorkflow {
	description: IWebhookDescription;
	webhook: NonNullable<INodeType['webhook']>;
	httpMethod: IHttpRequestMethods;
	path: string;
}

/** Express's Response as nodes use it (status, setHeader, json, send, end), recording the answer; one a node ends
 * while its `webhook()` still runs goes to the caller at once (`whileRunning`), as Express sends it; another method
 * fails, which the harness reports. */
export class WebhookResponse {
	statusCode = 200;
	readonly headers: OutgoingHttpHeaders = {};
	body?: string;
	answeredAt?: number;
	/** Set while `webhook()` runs. */
	running = false;

	constructor(private readonly whileRunning?: (response: WebhookResponse) => void) {}

	get headersSent(): boolean {
		return this.body !== undefined;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	/** Node's setHeader (Express's response is a ServerResponse), as a node sets a header of its own answer. */
	setHeader(name: string, value: string | number | readonly string[]): this {
		this.headers[name.toLowerCase()] = typeof value === 'number' ? String(value) : (value as string | string[]);
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
		if (this.body !== undefined) return this;
		this.body = body;
		this.answeredAt = Date.now();
		if (this.running) this.whileRunning?.(this);
		return this;
	}

	/** The body as a caller reads it: JSON when the answer says so (and parses), else text; undefined when empty. */
	get content(): unknown {
		if (!this.body) return undefined;
		const isJson = String(this.headers['content-type']).includes('json');
		return isJson ? jsonParse(this.body, { fallbackValue: this.body }) : this.body;
	}

	/** An error answer as n8n's ResponseHelper.sendErrorResponse writes it, unless the node has answered already. */
	fail(status: number, message: string, code = 0, hint?: string): void {
		if (!this.headersSent) this.status(status).json({ code, message, hint });
	}
}

const DEFAULT_WEBHOOK_ID = '5f0c4a7e-2b1d-4c3a-9e8f-0a1b2c3d4e5f';
/** n8n's N8N_PAYLOAD_SIZE_MAX default. */
const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;
const GENERIC_FAILURE = 'There was a problem executing the workflow';

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
	if (description === undefined || webhook === undefined) throw new UnexpectedError(`Node "${nodeDescription.name}" has no "default" webhook`);
	const endpoint = { ...harness, description, webhook };
	const path = String(describe(endpoint, 'path') ?? '').replace(/^\/+|\/+$/g, '');
	const isFullPath = describe(endpoint, 'isFullPath', false) === true;
	return {
		...endpoint,
		httpMethod: String(describe(endpoint, 'httpMethod', 'GET')).toUpperCase() as IHttpRequestMethods,
		path: NodeHelpers.getNodeWebhookPath(harness.workflow.id, harness.node, path, isFullPath),
	};
}

/** n8n's WebhookService.runWebhook: `webhook()` on n8n-core's WebhookContext, inside an expression isolate. */
export async function callWebhook(
	endpoint: WebhookEndpoint,
	request: WebhookRequest,
	response: WebhookResponse,
	mode: WorkflowExecuteMode = 'webhook',
	instanceUrl?: string,
): Promise<IWebhookResponseData> {
	const { workflow, node, description, webhook, httpMethod, path } = endpoint;
	const data = { ...additionalData(endpoint, instanceUrl), httpRequest: request, httpResponse: response };
	const webhookData = { httpMethod, node: node.name, path, webhookDescription: description, workflowId: workflow.id, workflowExecuteAdditionalData: data };
	const context = new WebhookContext(workflow, node, data, mode, { ...webhookData, webhookId: node.webhookId, isTest: mode === 'manual' }, [], null);
	return await workflow.expression.withIsolate(async () => await webhook.call(context));
}

/**
 * n8n's rawBodyReader and body parsing for a version 1 node: over 16 MiB is answered 500 (raw-body's error is no
 * ResponseError), JSON, url-encoded and text are parsed, else 422. XML is not parsed (n8n uses xml2js), multipart
 * not read (n8n's form parser reads it): the node then gets no body.
 */
async function readRequest(message: IncomingMessage, url: URL, response: WebhookResponse): Promise<WebhookRequest> {
	parseIncomingMessage(message);
	const request: WebhookRequest = Object.assign(message, { path: url.pathname, query: parseQuery(url.search.slice(1)), params: {} });
	const inflate = { gzip: createGunzip, deflate: createInflate }[String(message.headers['content-encoding'])];
	request.readRawBody = async () => {
		request.rawBody ??= await buffer(inflate ? message.pipe(inflate()) : message);
	};
	const { contentType, encoding } = request;
	if (contentType?.startsWith('multipart/')) return request;
	const read = await request.readRawBody().then(() => request.rawBody.length <= PAYLOAD_SIZE_MAX, () => false);
	if (!read) response.fail(500, GENERIC_FAILURE);
	const text = read ? request.rawBody.toString(encoding) : '';
	const unmarked = text.replace(/^\uFEFF/, '');
	try {
		if (!text) return request;
		if (contentType === 'application/json') request.body = jsonParse(unmarked);
		if (contentType === 'application/x-www-form-urlencoded') request.body = parseQuery(unmarked, undefined, undefined, { maxKeys: 1000 });
		if (contentType === 'text/plain') request.body = text;
	} catch (error) {
		response.fail(422, 'Failed to parse request body', 422, (error as Error).message);
	}
	return request;
}

/** n8n's executeWebhook from the parsed request to the workflow's start; a harness finding (an error, answered 500) marks what n8n would not answer as a test expects. */
async function execute(
	endpoint: WebhookEndpoint,
	request: WebhookRequest,
	response: WebhookResponse,
	mode: WorkflowExecuteMode,
	baseUrl: string,
): Promise<Pick<WebhookCall, 'workflowData' | 'error' | 'returnedAt'>> {
	let result: IWebhookResponseData;
	try {
		response.running = true;
		result = await callWebhook(endpoint, request, response, mode, baseUrl);
	} catch (error) {
		response.running = false;
		// n8n's _privateGetWebhookErrorMessage: a node's own message only for configuration errors.
		const configuration = error instanceof WorkflowConfigurationError;
		response.fail(500, configuration ? error.message : 'Workflow Webhook Error: Workflow could not be started!');
		return { error: error as Error };
	}
	response.running = false;
	const returnedAt = Date.now();
	const { workflowData, webhookResponse, noWebhookResponse } = result;
	const finding = (message: string) => {
		response.fail(500, message);
		return { workflowData, returnedAt, error: new UnexpectedError(message) };
	};
	if (noWebhookResponse === true) return response.headersSent ? { workflowData, returnedAt } : finding('webhook() returned noWebhookResponse but did not answer the request');
	const responseMode = describe(endpoint, 'responseMode', 'onReceived');
	if (workflowData !== undefined && responseMode !== 'onReceived') return finding(`The harness answers only "onReceived" webhooks, not "${String(responseMode)}"`);
	// Only undefined selects n8n's default: a node may answer null.
	const answer = (fallback: string) => (webhookResponse !== undefined ? webhookResponse : { message: fallback });
	// n8n's extractWebhookOnReceivedResponse: what "Respond: Immediately" answers once a workflow starts.
	const responseData = describe(endpoint, 'responseData', 'firstEntryJson');
	const started = responseData === 'noData' ? undefined : responseData || answer('Workflow was started');
	const body = workflowData === undefined ? answer('Webhook call received') : started;
	response.status(Number(describe(endpoint, 'responseCode', 200))).send(body);
	return { workflowData, returnedAt };
}

/**
 * Serves a trigger node's webhook on a local port the way n8n's webhook server does: routing (404 for another path
 * or method), body parsing, `webhook()` and n8n's answer. The workflow itself is not run; each call records the
 * items it would have started, before its answer is sent (unless the node answered while its webhook() ran).
 */
export async function runWebhook(options: RunWebhookOptions): Promise<WebhookHarness> {
	await ensureExpressionEngine();
	const endpoint = webhookEndpoint(options);
	const calls: WebhookCall[] = [];

	async function handle(message: IncomingMessage, socket: ServerResponse): Promise<void> {
		const method = message.method ?? 'GET';
		const url = new URL(message.url ?? '/', server.url);
		const [, prefix, requested = ''] = /^\/(webhook|webhook-test)\/(.*?)\/*$/.exec(url.pathname) ?? [];
		let sent = false;
		const send = (answer: WebhookResponse) => {
			sent = true;
			message.resume();
			socket.writeHead(answer.statusCode, answer.headers).end(answer.body);
		};
		const response = new WebhookResponse(send);
		const expected = endpoint.httpMethod;
		if (prefix === undefined || decodeURIComponent(requested) !== endpoint.path) {
			response.fail(404, `The requested webhook "${method} ${requested}" is not registered.`, 404);
		} else if (method !== expected) {
			response.fail(404, `This webhook is not registered for ${method} requests. Did you mean to make a ${expected} request?`, 404);
		} else {
			const mode = prefix === 'webhook' ? 'webhook' : 'manual';
			const request = await readRequest(message, url, response);
			const outcome = response.headersSent ? {} : await execute(endpoint, request, response, mode, server.url).catch((error: Error) => {
				response.fail(500, GENERIC_FAILURE);
				return { error };
			});
			const { headers, rawBody } = request as { headers: IncomingHttpHeaders; rawBody?: Buffer };
			calls.push({ mode, request: { headers, rawBody }, status: response.statusCode, body: response.content, answeredAt: response.answeredAt ?? Date.now(), ...outcome });
		}
		if (!sent) send(response);
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
