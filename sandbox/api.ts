import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

import { authenticate, type AuthKind } from './auth';
import { bodyObject, loggedBody, parseBody, send, type Answer, type ParsedBody } from './body';
import { ApiError, notFound } from './errors';
import { errorAnswer } from './errorFormats';
import { faultAnswer } from './faults';
import type { LoggedFault } from './requestLog';
import { apiRouter } from './resources';
import type { SandboxState } from './state';
import { successAnswer } from './successAnswer';
import type { VariantSettings } from './variants';
import { writeTargets } from './visibility';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The /api/v1 pipeline: faults picked first (a 'before' fault answers in place of the API, an 'after' fault
 * replaces the answer of a request that was processed), then rate limit, authentication, route, read-only
 * check, body, handler. Every request is logged. The variant in force when the request arrives shapes the
 * answer (see variants.ts).
 */
export function createApi(state: SandboxState) {
	const router = apiRouter(state.config.extensions);

	function answer(
		method: string,
		path: string,
		query: URLSearchParams,
		body: ParsedBody,
		auth: AuthKind,
		variant: Readonly<VariantSettings>,
	): Answer {
		const rate = state.limiter.hit(auth, Date.now(), variant);
		try {
			if (!rate.allowed) throw new ApiError(429, `Rate limit exceeded: retry after ${rate.waitSeconds} s`);
			if (auth === 'none' || auth === 'invalid') {
				const message = auth === 'none' ? 'Missing header Authorization: Bearer <token>' : 'Invalid API token';
				throw new ApiError(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
			}
			const match = router.match(method, path);
			if (!match) throw notFound(`No route ${method} /api/v1${path}`);
			if (auth === 'readonly' && method !== 'GET') {
				throw new ApiError(403, `This API token is read-only: ${method} is not allowed`);
			}
			const handle = () =>
				match.handler({
					state,
					variant,
					id: Number(match.params.id ?? 0),
					query,
					body: ['POST', 'PUT', 'PATCH'].includes(method) ? bodyObject(body) : {},
				});
			const result = method === 'GET' ? state.visibleRead(handle) : state.trackWrite(writeTargets(path), handle);
			const ok = successAnswer(result, variant);
			return { ...ok, headers: { ...ok.headers, ...rate.headers } };
		} catch (error) {
			if (!(error instanceof ApiError)) console.error('[sandbox] unexpected error', error);
			const failure = error instanceof ApiError ? error : new ApiError(500, 'Internal server error');
			const failed = errorAnswer(failure.status, failure.message, failure.fields, variant.errorFormat);
			return { ...failed, headers: { ...failed.headers, ...rate.headers, ...failure.headers } };
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
		const variant = state.variant.settings;
		const auth = authenticate(req.headers.authorization, state.config);
		const body = parseBody(raw);
		const fault = state.faults.pick(method, path, `${query.toString()} ${raw}`);
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
		// The gateway's quota headers go on every answer, faults included; a queued fault's own headers win.
		const write = (a: Answer) =>
			send(
				res,
				a.status,
				{
					...a.headers,
					...(variant.gatewayHeaders ? state.gateway.quota(auth, variant) : {}),
					...fault?.headers,
					'Server-Timing': `app;dur=${(performance.now() - started).toFixed(3)}`,
				},
				a.body,
			);

		const delay = state.faults.settings.latencyMs + (fault?.delayMs ?? 0);
		if (delay > 0) await sleep(delay);
		const breaking = fault && fault.kind !== 'latency' ? fault : null;
		let appStatus: number | undefined;
		if (!breaking || breaking.afterCommit) {
			const result = answer(method, path, query, body, auth, variant);
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
		const faulted = faultAnswer(breaking, variant);
		write(faulted);
		log(faulted.status, logged);
	}
}
