import { ensureExpressionEngine } from './environment';

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	isNodeClassInstance,
	NodeHelpers,
	NodeOperationError,
	resolveWebhookDescriptionField,
	UnexpectedError,
	WorkflowConfigurationError,
} from 'n8n-workflow';

import { createAdditionalData } from './additional-data';
import {
	dataAnswer,
	decodeBody,
	errorAnswer,
	HttpAnswerError,
	isParsableContentType,
	parseBody,
	prepareRequest,
	WebhookResponse,
	writeAnswer,
	type CollectedAnswer,
	type WebhookRequest,
} from './webhook-http';
import { buildWorkflow, type HarnessWorkflow } from './workflow';

export interface RunWebhookOptions {
	/** An instance of the trigger node, e.g. `new ErpTrigger()`. */
	nodeType: INodeType;
	parameters: INodeParameters;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	typeVersion?: number;
	/** Which of the node's webhook descriptions to serve; default `default`. */
	webhookName?: string;
	/** The node's webhookId (first segment of its URLs); default a fixed test id. */
	webhookId?: string;
}

/** One request the server received and what became of it. */
export interface WebhookCall {
	/** `webhook` for the production URL, `manual` for the test URL. */
	mode: WorkflowExecuteMode;
	request: { method: string; path: string; headers: IncomingHttpHeaders; rawBody?: Buffer; body?: unknown };
	/** The answer the caller got. */
	status: number;
	headers: Record<string, unknown>;
	/** The answer's body: parsed JSON, text, or undefined when empty. */
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

const DEFAULT_WEBHOOK_ID = '5f0c4a7e-2b1d-4c3a-9e8f-0a1b2c3d4e5f';
const SUPPORTED_RESPONSE_MODES = new Set([
	'onReceived',
	'lastNode',
	'responseNode',
	'formPage',
	'streaming',
	'hostedChat',
]);
const GENERIC_FAILURE = 'There was a problem executing the workflow';

/** The node's webhook as n8n registers it. */
interface Endpoint {
	harness: HarnessWorkflow;
	nodeType: INodeType;
	description: IWebhookDescription;
	httpMethod: string;
	/** `<webhookId>/<path>`, after `/webhook/` or `/webhook-test/`. */
	path: string;
}

interface Outcome {
	answer: CollectedAnswer;
	workflowData?: INodeExecutionData[][];
	error?: Error;
}

const failure = (status: number, message: string, code = 0) =>
	errorAnswer(new HttpAnswerError(status, { code, message }));

/** n8n's WebhookService.evaluateDescriptionProperty: native resolution first, else an expression on the node. */
function describe(endpoint: Pick<Endpoint, 'harness' | 'description'>, property: string, fallback?: string | boolean) {
	const { harness, description } = endpoint;
	const native = resolveWebhookDescriptionField(harness.node, description, property);
	if (native.resolved) return native.value;
	return harness.workflow.expression.getSimpleParameterValue(
		harness.node,
		description[property],
		'internal',
		{},
		undefined,
		fallback,
	);
}

/** n8n's WebhookExecutionContext.evaluateComplexWebhookDescriptionExpression. */
function describeComplex(endpoint: Endpoint, property: string, mode: WorkflowExecuteMode, fallback: string | number) {
	const { harness, description } = endpoint;
	const native = resolveWebhookDescriptionField(harness.node, description, property);
	if (native.resolved) return native.value;
	return harness.workflow.expression.getComplexParameterValue(
		harness.node,
		description[property],
		mode,
		{},
		undefined,
		fallback,
	);
}

function createEndpoint(options: RunWebhookOptions): Endpoint {
	const harness = buildWorkflow({ ...options, webhookId: options.webhookId ?? DEFAULT_WEBHOOK_ID });
	const nodeType = harness.workflow.nodeTypes.getByNameAndVersion(harness.node.type, harness.node.typeVersion);
	const webhookName = options.webhookName ?? 'default';
	const description = nodeType.description.webhooks?.find((webhook) => webhook.name === webhookName);
	if (description === undefined || nodeType.webhook === undefined) {
		throw new UnexpectedError(`Node "${nodeType.description.name}" has no "${webhookName}" webhook`);
	}
	const path = String(describe({ harness, description }, 'path') ?? '').replace(/^\/+|\/+$/g, '');
	const isFullPath = describe({ harness, description }, 'isFullPath', false) === true;
	return {
		harness,
		nodeType,
		description,
		httpMethod: String(describe({ harness, description }, 'httpMethod', 'GET')).toUpperCase(),
		path: NodeHelpers.getNodeWebhookPath(harness.workflow.id, harness.node, path, isFullPath),
	};
}

/** n8n's LiveWebhooks/TestWebhooks lookup: the execution mode for the URL, or n8n's 404 answer. */
function route(endpoint: Endpoint, method: string, url: URL): WorkflowExecuteMode | CollectedAnswer {
	const [, prefix, requested = ''] = /^\/(webhook|webhook-test)\/(.*?)\/*$/.exec(url.pathname) ?? [];
	if (prefix === undefined || decodeURIComponent(requested) !== endpoint.path) {
		return failure(404, `The requested webhook "${method} ${requested}" is not registered.`, 404);
	}
	if (method !== endpoint.httpMethod) {
		const expected = endpoint.httpMethod;
		const message = `This webhook is not registered for ${method} requests. Did you mean to make a ${expected} request?`;
		return failure(404, message, 404);
	}
	return prefix === 'webhook' ? 'webhook' : 'manual';
}

/** n8n's WebhookService.runWebhook: class-based nodes get the context as an argument, others as `this`. */
async function callWebhook(nodeType: INodeType, context: WebhookContext): Promise<IWebhookResponseData> {
	if (isNodeClassInstance(nodeType) && nodeType.webhook) return await nodeType.webhook(context);
	if (nodeType.webhook === undefined) throw new UnexpectedError('Node does not have any webhooks defined');
	return await nodeType.webhook.call(context);
}

/** n8n's _privateGetWebhookErrorMessage: a node's own message only for configuration errors. */
function webhookErrorMessage(error: unknown): string {
	if (error instanceof NodeOperationError && error.type === 'manual-form-test') return error.message;
	if (error instanceof WorkflowConfigurationError) return error.message;
	return 'Workflow Webhook Error: Workflow could not be started!';
}

/** n8n's extractWebhookOnReceivedResponse: what "Respond: Immediately" answers once a workflow starts. */
function onReceivedBody(responseData: unknown, result: IWebhookResponseData): unknown {
	if (responseData === 'noData') return undefined;
	if (responseData) return responseData;
	if (result.webhookResponse !== undefined) return result.webhookResponse;
	return { message: 'Workflow was started' };
}

/** n8n's executeWebhook up to the start of the workflow: parse the body, run `webhook()`, decide the answer. */
async function execute(
	endpoint: Endpoint,
	request: WebhookRequest,
	mode: WorkflowExecuteMode,
	baseUrl: string,
): Promise<Outcome> {
	const { harness, nodeType, description } = endpoint;
	try {
		// n8n parses every body for a version 1 node (unless the Webhook node's binaryData option is on), and
		// only the types it can parse for later versions.
		if (harness.node.typeVersion === 1 || isParsableContentType(request.contentType)) await parseBody(request);
	} catch (error) {
		if (error instanceof HttpAnswerError) return { answer: errorAnswer(error) };
		throw error;
	}

	const responseMode = String(describeComplex(endpoint, 'responseMode', mode, 'onReceived'));
	const responseCode = Number(describeComplex(endpoint, 'responseCode', mode, 200));
	const responseData = describeComplex(endpoint, 'responseData', mode, 'firstEntryJson');
	if (!SUPPORTED_RESPONSE_MODES.has(responseMode)) {
		const message = `The response mode '${responseMode}' is not valid!`;
		return { answer: failure(500, message), error: new UnexpectedError(message) };
	}

	const response = new WebhookResponse();
	const additionalData = createAdditionalData({ credentialsHelper: harness.credentialsHelper, instanceUrl: baseUrl });
	additionalData.httpRequest = request;
	additionalData.httpResponse = response;
	const webhookData: IWebhookData = {
		httpMethod: endpoint.httpMethod as IHttpRequestMethods,
		node: harness.node.name,
		path: endpoint.path,
		webhookDescription: description,
		workflowId: harness.workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: harness.node.webhookId,
		isTest: mode === 'manual',
	};
	const closeFunctions: Array<() => Promise<void>> = [];
	const { workflow, node } = harness;
	const context = new WebhookContext(workflow, node, additionalData, mode, webhookData, closeFunctions, null);

	let result: IWebhookResponseData;
	try {
		result = await harness.workflow.expression.withIsolate(async () => await callWebhook(nodeType, context));
	} catch (error) {
		const answer = response.headersSent ? response.collected() : failure(500, webhookErrorMessage(error));
		return { answer, error: error as Error };
	} finally {
		await Promise.allSettled(closeFunctions.map(async (close) => await close()));
	}
	const { workflowData } = result;

	if (result.noWebhookResponse === true) {
		if (response.headersSent) return { answer: response.collected(), workflowData };
		const error = new UnexpectedError('webhook() returned noWebhookResponse but did not answer the request');
		return { answer: failure(500, error.message), workflowData, error };
	}
	if (workflowData === undefined) {
		// Only undefined selects n8n's default: a node may answer null.
		const body: unknown =
			result.webhookResponse !== undefined ? result.webhookResponse : { message: 'Webhook call received' };
		return { answer: dataAnswer(responseCode, body) };
	}
	if (responseMode !== 'onReceived') {
		const error = new UnexpectedError(`The harness answers only "onReceived" webhooks, not "${responseMode}"`);
		return { answer: failure(500, error.message), workflowData, error };
	}
	return { answer: dataAnswer(responseCode, onReceivedBody(responseData, result)), workflowData };
}

/**
 * Serves a trigger node's webhook on a local port the way n8n's webhook server does: it routes the production and
 * test URLs, reads and parses the body like n8n's middlewares (rawBody Buffer, JSON/form/text parsing, 422 on a
 * body that does not parse, 16 MiB limit), calls `webhook()` with n8n-core's WebhookContext and answers like
 * n8n's executeWebhook (the node's own answer with `noWebhookResponse`, else `webhookResponse` or n8n's default).
 * The workflow itself is not run; each call records the items it would have started. Calls are recorded before
 * their answer is sent.
 */
export async function runWebhook(options: RunWebhookOptions): Promise<WebhookHarness> {
	await ensureExpressionEngine();
	const endpoint = createEndpoint(options);
	const calls: WebhookCall[] = [];
	const waiters: Array<() => void> = [];
	let baseUrl = '';

	async function handle(message: IncomingMessage, socket: ServerResponse): Promise<void> {
		const method = message.method ?? 'GET';
		const url = new URL(message.url ?? '/', baseUrl);
		const mode = route(endpoint, method, url);
		if (typeof mode !== 'string') {
			message.resume();
			writeAnswer(socket, mode);
			return;
		}

		const request = prepareRequest(message, url);
		const outcome = await execute(endpoint, request, mode, baseUrl).catch(
			(error: Error): Outcome => ({ answer: failure(500, GENERIC_FAILURE), error }),
		);
		calls.push({
			mode,
			request: {
				method,
				path: url.pathname,
				headers: message.headers,
				rawBody: request.rawBody as Buffer | undefined,
				body: request.body,
			},
			status: outcome.answer.status,
			headers: outcome.answer.headers,
			body: decodeBody(outcome.answer.headers, outcome.answer.body),
			workflowData: outcome.workflowData,
			error: outcome.error,
		});
		for (const wake of waiters.splice(0)) wake();
		message.resume();
		writeAnswer(socket, outcome.answer);
	}

	const server = createServer((message, socket) => {
		void handle(message, socket);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		url: `${baseUrl}/webhook/${endpoint.path}`,
		testUrl: `${baseUrl}/webhook-test/${endpoint.path}`,
		calls,
		async waitForCalls(count: number, timeoutMs = 10_000): Promise<WebhookCall[]> {
			const deadline = Date.now() + timeoutMs;
			while (calls.length < count) {
				const remaining = deadline - Date.now();
				if (remaining <= 0) {
					throw new Error(`Expected ${count} webhook call(s) within ${timeoutMs} ms, got ${calls.length}`);
				}
				await new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, remaining);
					waiters.push(() => {
						clearTimeout(timer);
						resolve();
					});
				});
			}
			return calls.slice(0, count);
		},
		async close(): Promise<void> {
			server.closeAllConnections();
			await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
		},
	};
}
