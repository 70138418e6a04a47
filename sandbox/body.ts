import type { IncomingMessage, ServerResponse } from 'node:http';

import { badRequest } from './errors';
import type { JsonObject } from './types';
import { isPlainObject } from './validate';

/** An HTTP answer before it is written. */
export interface Answer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

export type ParsedBody = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; raw: string };

export async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export function parseBody(raw: string): ParsedBody {
	if (raw.trim() === '') return { kind: 'empty' };
	try {
		return { kind: 'json', value: JSON.parse(raw) };
	} catch {
		return { kind: 'invalid', raw };
	}
}

/** The body a handler works on: an empty body is {}; invalid JSON or a non-object is a 400. */
export function bodyObject(body: ParsedBody): JsonObject {
	if (body.kind === 'empty') return {};
	if (body.kind === 'invalid') throw badRequest('The request body is not valid JSON');
	if (!isPlainObject(body.value)) throw badRequest('The request body must be a JSON object');
	return body.value;
}

/** How the request log shows a body. */
export const loggedBody = (body: ParsedBody): unknown =>
	body.kind === 'empty' ? null : body.kind === 'json' ? body.value : body.raw;

export function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
	res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
	res.end(body);
}

export const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' };

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
	send(res, status, { ...JSON_TYPE, ...headers }, JSON.stringify(value));
}
