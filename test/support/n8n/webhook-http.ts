import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import { jsonParse } from 'n8n-workflow';

/** n8n's N8N_PAYLOAD_SIZE_MAX default: 16 MiB. */
export const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;

/** An n8n-style error answer, as n8n's ResponseHelper.sendErrorResponse writes it. */
export class HttpAnswerError extends Error {
	constructor(
		readonly status: number,
		readonly body: { code: number; message: string; hint?: string },
	) {
		super(body.message);
	}
}

/**
 * The request as n8n hands it to a webhook node: Node's IncomingMessage (which n8n-workflow already extends with
 * contentType, encoding, rawBody and readRawBody) plus what Express adds. rawBody stays unset until it is read.
 */
export interface WebhookRequest extends IncomingMessage {
	path: string;
	query: Record<string, unknown>;
	params: Record<string, string>;
	body?: unknown;
}

/** n8n's parseIncomingMessage (backend-network): media type lower-cased, charset defaulting to utf-8. */
function parseContentType(header: string | undefined): { type: string; charset: string } | undefined {
	if (!header) return undefined;
	const [type, ...parameters] = header.split(';');
	let charset = 'utf-8';
	for (const parameter of parameters) {
		const [key, value] = parameter.split('=');
		if (key?.trim().toLowerCase() === 'charset' && value) charset = value.trim().replace(/^"|"$/g, '');
	}
	return { type: type.toLowerCase(), charset: charset.toLowerCase() };
}

async function readStream(stream: Readable, declaredLength: string | undefined): Promise<Buffer> {
	if (declaredLength !== undefined && Number(declaredLength) > PAYLOAD_SIZE_MAX) {
		throw new HttpAnswerError(500, { code: 0, message: 'There was a problem executing the workflow' });
	}
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		size += buffer.length;
		// raw-body's "request entity too large" is no ResponseError, so n8n answers its generic 500.
		if (size > PAYLOAD_SIZE_MAX) {
			throw new HttpAnswerError(500, { code: 0, message: 'There was a problem executing the workflow' });
		}
		chunks.push(buffer);
	}
	return Buffer.concat(chunks);
}

/** What n8n's rawBodyReader middleware does: content type, encoding, a lazy raw body reader (gzip/deflate aware). */
export function prepareRequest(message: IncomingMessage, url: URL): WebhookRequest {
	const request = message as WebhookRequest;
	const contentType = parseContentType(message.headers['content-type']);
	request.contentType = contentType?.type;
	request.encoding = (contentType?.charset ?? 'utf-8') as BufferEncoding;
	request.path = url.pathname;
	request.query = parseQueryString(url.search.slice(1));
	request.params = {};
	request.readRawBody = async () => {
		if ((request.rawBody as Buffer | undefined) !== undefined) return;
		const encoding = message.headers['content-encoding'];
		if (encoding === 'gzip') request.rawBody = await readStream(message.pipe(createGunzip()), undefined);
		else if (encoding === 'deflate') request.rawBody = await readStream(message.pipe(createInflate()), undefined);
		else request.rawBody = await readStream(message, message.headers['content-length']);
	};
	return request;
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/**
 * n8n's parseBody (cli middlewares/body-parser.ts): JSON, url-encoded and plain-text bodies are parsed; a body that
 * fails to parse is answered 422 before the node sees it. XML is not parsed here (n8n uses xml2js) and multipart is
 * not read at all (n8n parses it with its form-data parser): the node then gets no body.
 */
export async function parseBody(request: WebhookRequest): Promise<void> {
	if (request.contentType?.startsWith('multipart/')) return;
	await request.readRawBody();
	const { rawBody, contentType, encoding } = request;
	if (!rawBody.length) return;
	try {
		if (contentType === 'application/json') {
			request.body = jsonParse(stripBom(rawBody.toString(encoding)));
		} else if (contentType === 'application/x-www-form-urlencoded') {
			request.body = parseQueryString(stripBom(rawBody.toString(encoding)), undefined, undefined, { maxKeys: 1000 });
		} else if (contentType === 'text/plain') {
			request.body = rawBody.toString(encoding);
		}
	} catch (error) {
		throw new HttpAnswerError(422, {
			code: 422,
			message: 'Failed to parse request body',
			hint: (error as Error).message,
		});
	}
}

/** n8n's webhook-helpers isParsableContentType: which bodies a webhook node of version > 1 gets parsed. */
export function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

/** The answer a response object collected, written to the socket once the harness has recorded it. */
export interface CollectedAnswer {
	status: number;
	headers: OutgoingHttpHeaders;
	body: Buffer;
}

/**
 * The part of Express's Response that webhook nodes use (status, set/header, type, json, send, sendStatus, write,
 * end), collecting the answer instead of writing it, so the harness can record a call before its caller sees the
 * response. A node using another Express method fails with a TypeError, which the harness reports.
 */
export class WebhookResponse {
	statusCode = 200;

	private readonly headers = new Map<string, string | number | string[]>();

	private readonly chunks: Buffer[] = [];

	private ended = false;

	get headersSent(): boolean {
		return this.ended;
	}

	get writableEnded(): boolean {
		return this.ended;
	}

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string | number | string[]): this {
		this.headers.set(name.toLowerCase(), value);
		return this;
	}

	getHeader(name: string): string | number | string[] | undefined {
		return this.headers.get(name.toLowerCase());
	}

	set(name: string | Record<string, string>, value?: string): this {
		if (typeof name === 'string') return this.setHeader(name, value ?? '');
		for (const [key, headerValue] of Object.entries(name)) this.setHeader(key, headerValue);
		return this;
	}

	header(name: string | Record<string, string>, value?: string): this {
		return this.set(name, value);
	}

	type(contentType: string): this {
		const known: Record<string, string> = { json: 'application/json', text: 'text/plain', html: 'text/html' };
		return this.setHeader('content-type', known[contentType] ?? contentType);
	}

	writeHead(code: number, headers?: OutgoingHttpHeaders): this {
		this.statusCode = code;
		for (const [key, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(key, value);
		return this;
	}

	json(body: unknown): this {
		if (!this.headers.has('content-type')) this.setHeader('content-type', 'application/json; charset=utf-8');
		return this.end(body === undefined ? '' : JSON.stringify(body));
	}

	/** Express's send: strings as text/html, Buffers as octet-stream, anything else as JSON. */
	send(body?: unknown): this {
		if (typeof body === 'string') {
			if (!this.headers.has('content-type')) this.setHeader('content-type', 'text/html; charset=utf-8');
			return this.end(body);
		}
		if (Buffer.isBuffer(body)) {
			if (!this.headers.has('content-type')) this.setHeader('content-type', 'application/octet-stream');
			return this.end(body);
		}
		if (body === undefined || body === null) return this.end();
		return this.json(body);
	}

	sendStatus(code: number): this {
		return this.status(code).type('text').end(String(code));
	}

	write(chunk: string | Buffer): boolean {
		this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
		return true;
	}

	end(chunk?: string | Buffer): this {
		if (this.ended) return this;
		if (chunk !== undefined) this.write(chunk);
		this.ended = true;
		return this;
	}

	collected(): CollectedAnswer {
		return { status: this.statusCode, headers: Object.fromEntries(this.headers), body: Buffer.concat(this.chunks) };
	}
}

/** An n8n error answer (`{code, message, hint?}`) as a collected answer. */
export function errorAnswer(error: HttpAnswerError): CollectedAnswer {
	return {
		status: error.status,
		headers: { 'content-type': 'application/json; charset=utf-8' },
		body: Buffer.from(JSON.stringify(error.body)),
	};
}

/** How n8n sends a node's `webhookResponse` or its own message: strings with `send`, anything else as JSON. */
export function dataAnswer(status: number, body: unknown): CollectedAnswer {
	const response = new WebhookResponse().status(status);
	if (typeof body === 'string') response.send(body);
	else response.json(body);
	return response.collected();
}

/** Writes a collected answer to the real socket. */
export function writeAnswer(response: ServerResponse, answer: CollectedAnswer): void {
	response.writeHead(answer.status, answer.headers);
	response.end(answer.body);
}

/** A recorded body: JSON when the answer says so, else text; undefined when empty. */
export function decodeBody(headers: IncomingHttpHeaders | OutgoingHttpHeaders, body: Buffer): unknown {
	if (body.length === 0) return undefined;
	const text = body.toString('utf8');
	const contentType = String(headers['content-type'] ?? '');
	if (contentType.includes('json')) {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return text;
		}
	}
	return text;
}
