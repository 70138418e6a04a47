import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

import { authenticate, type AuthKind } from './auth';
import { bodyObject, JSON_TYPE, loggedBody, parseBody, send, type ParsedBody } from './body';
import { ApiError, errorBody, notFound } from './errors';
import { faultAnswer } from './faults';
import type { LoggedFault } from './requestLog';
import { apiRouter } from './resources';
import type { SandboxState } from './state';

interface Answer {
	status: number;
	headers: Record<string, string>;
	body: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The /api/v1 pipeline: faults picked first (a 'before' fault answers in place of the API, an 'after' fault
 * replaces the answer of a request that was processed), then rate limit, authentication, route, read-only
 * check, body, handler. Every request is logged.
 */
export function createApi(state: SandboxState) {
	const router = apiRouter();

	function answer(method: string, path: string, query: URLSearchParams, body: ParsedBody, auth: AuthKind): Answer {
		const rate = state.limiter.hit(auth);
		const headers = { ...JSON_TYPE, ...rate.headers };
		try {
			if (!rate.allowed) {
				throw new ApiError(429, `Rate limit exceeded: retry after ${rate.headers['Retry-After']} s`);
			}
			if (auth === 'none' || auth === 'invalid') {
				const message = auth === 'none' ? 'Missing header Authorization: Bearer <token>' : 'Invalid API token';
				throw new ApiError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
			}
			const match = router.match(method, path);
			if (!match) throw notFound(`No route ${method} /api/v1${path}`);
			if (auth === 'readonly' && method !== 'GET') {
				throw new ApiError(403, `This API token is read-only: ${method} is not allowed`);
			}
			const result = match.handler({
				state,
				id: Number(match.params.id ?? 0),
				query,
				body: method === 'POST' || method === 'PUT' ? bodyObject(body) : {},
			});
			const envelope = { success: true, data: result.data, ...(result.meta ? { meta: result.meta } : {}) };
			return { status: result.status ?? 200, headers, body: JSON.stringify(envelope) };
		} catch (error) {
			if (error instanceof ApiError) {
				return { status: error.status, headers: { ...headers, ...error.headers }, body: JSON.stringify(error.body) };
			}
			console.error('[sandbox] unexpected error', error);
			return { status: 500, headers, body: JSON.stringify(errorBody(500, 'Internal server error')) };
		}
	}

	return async function serveApi(
		req: IncomingMessage,
		res: ServerResponse,
		path: string,
		query: URLSearchParams,
		raw: string,
	): Promise<void> {
		const started = performance.now();
		const at = new Date().toISOString();
		const method = req.method ?? 'GET';
		const auth = authenticate(req.headers.authorization, state.config);
		const body = parseBody(raw);
		const fault = state.faults.pick(method, path);
		const log = (status: number | null, logged?: LoggedFault) =>
			state.log.add({
				at,
				method,
				path,
				query: Object.fromEntries(query),
				body: loggedBody(body),
				status,
				auth,
				...(logged ? { fault: logged } : {}),
			});
		const write = (a: Answer) =>
			send(res, a.status, { ...a.headers, 'Server-Timing': `app;dur=${(performance.now() - started).toFixed(3)}` }, a.body);

		const delay = state.faults.settings.latencyMs + (fault?.delayMs ?? 0);
		if (delay > 0) await sleep(delay);
		const breaking = fault && fault.kind !== 'latency' ? fault : null;
		let appStatus: number | undefined;
		if (!breaking || breaking.afterCommit) {
			const result = answer(method, path, query, body, auth);
			if (!breaking) {
				write(result);
				log(result.status, fault ? { kind: fault.kind, source: fault.source, afterCommit: false } : undefined);
				return;
			}
			appStatus = result.status;
		}
		const logged: LoggedFault = {
			kind: breaking.kind,
			source: breaking.source,
			afterCommit: breaking.afterCommit,
			...(appStatus !== undefined ? { appStatus } : {}),
		};
		if (breaking.kind === 'drop') {
			res.socket?.destroy();
			log(null, logged);
			return;
		}
		const faulted = faultAnswer(breaking);
		write(faulted);
		log(faulted.status, logged);
	}
}
