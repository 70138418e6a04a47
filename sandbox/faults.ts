import { createHash } from 'node:crypto';

import type { Answer } from './body';
import { statusText } from './errors';
import { errorAnswer } from './errorFormats';
import { resetHeader, retryAfterHeader } from './rateLimit';
import type { VariantSettings } from './variants';

export type FaultKind = 'status' | 'drop' | 'latency' | 'html' | 'rateLimit';

/** A keyword, or any other JSON value sent as the body verbatim (e.g. `{"message": "…"}`). */
export type FaultBody = 'json' | 'html' | 'empty' | 'text' | object;

export interface FaultSettings {
	errorRate: number;
	errorStatus: number;
	errorBody: 'json' | 'html' | 'empty';
	/** null: 'after' for writes answered 5xx/HTML or dropped, 'before' otherwise. */
	faultTiming: 'before' | 'after' | null;
	dropRate: number;
	latencyMs: number;
	nonJsonRate: number;
	/** The "not yet visible" fault: a record a write created or changed reads as before for this long (0: off). */
	visibleAfterMs: number;
	/**
	 * Makes the random faults replayable: a request's draw then depends only on the seed, the request (method,
	 * path, query, body) and how many times that same request came before, not on the order requests arrive in.
	 * Absent: Math.random.
	 */
	seed?: number;
}

/** What PUT /__sandbox/faults may change; `seed: null` goes back to unseeded draws. */
export type FaultChanges = Partial<Omit<FaultSettings, 'seed'>> & { seed?: number | null };

export interface FaultSpec {
	kind: FaultKind;
	status?: number;
	body?: FaultBody;
	/** Seconds or an HTTP date; null sends no Retry-After. Default on a 429: 1. */
	retryAfter?: number | string | null;
	delayMs?: number;
	afterCommit?: boolean;
	/** Extra response headers, set last (over the API's own), e.g. {"X-RateLimit-Reset": "…"}. */
	headers?: Record<string, string>;
}

export interface QueuedFault {
	id: number;
	match: { method?: string; path?: string };
	fault: FaultSpec;
	remaining: number;
}

export interface PickedFault {
	kind: FaultKind;
	status: number;
	body: FaultBody;
	retryAfter: number | string | null | undefined;
	delayMs: number;
	afterCommit: boolean;
	source: 'queue' | 'random';
	headers?: Record<string, string>;
}

export const NO_FAULTS: FaultSettings = {
	errorRate: 0,
	errorStatus: 500,
	errorBody: 'json',
	faultTiming: null,
	dropRate: 0,
	latencyMs: 0,
	nonJsonRate: 0,
	visibleAfterMs: 0,
};

const DEFAULT_STATUS: Record<FaultKind, number> = { status: 500, html: 502, rateLimit: 429, drop: 0, latency: 0 };

/** Random faults (probabilities per /api/v1 request) and a queue of exact faults for the next requests. */
export class Faults {
	settings: FaultSettings = { ...NO_FAULTS };

	private queue: QueuedFault[] = [];

	private lastId = 0;

	/** Seeded only: how often each request has been drawn for so far. */
	private attempts = new Map<string, number>();

	/** Any `seed` given starts counting attempts afresh. */
	update(changes: FaultChanges): void {
		const { seed, ...rest } = changes;
		this.settings = { ...this.settings, ...rest };
		if (seed === undefined) return;
		this.attempts.clear();
		if (seed === null) delete this.settings.seed;
		else this.settings.seed = seed;
	}

	enqueue(match: QueuedFault['match'], fault: FaultSpec, times: number): QueuedFault {
		const entry = { id: ++this.lastId, match, fault, remaining: times };
		this.queue.push(entry);
		return entry;
	}

	queued(): QueuedFault[] {
		return this.queue.map((entry) => ({ ...entry }));
	}

	clearQueue(): void {
		this.queue = [];
	}

	clear(): void {
		this.settings = { ...NO_FAULTS };
		this.attempts.clear();
		this.clearQueue();
	}

	/**
	 * The fault for this request, if any: the first matching queue entry wins over random faults. `request` is
	 * whatever else tells requests apart (query and body): seeded draws are made per request.
	 */
	pick(method: string, path: string, request = ''): PickedFault | null {
		const write = method !== 'GET';
		const index = this.queue.findIndex((entry) => matches(entry.match, method, path));
		if (index >= 0) {
			const entry = this.queue[index];
			if (--entry.remaining <= 0) this.queue.splice(index, 1);
			const { kind } = entry.fault;
			const status = entry.fault.status ?? DEFAULT_STATUS[kind];
			return {
				kind,
				status,
				body: kind === 'html' ? 'html' : (entry.fault.body ?? 'json'),
				retryAfter: entry.fault.retryAfter,
				delayMs: entry.fault.delayMs ?? (kind === 'latency' ? 1000 : 0),
				afterCommit: kind !== 'latency' && (entry.fault.afterCommit ?? ambiguousByDefault(write, kind, status)),
				source: 'queue',
				...(entry.fault.headers ? { headers: entry.fault.headers } : {}),
			};
		}
		const s = this.settings;
		const draw = this.draws(`${method} ${path} ${request}`);
		let fault: Pick<PickedFault, 'kind' | 'status' | 'body'> | null = null;
		if (draw() < s.dropRate) fault = { kind: 'drop', status: 0, body: 'empty' };
		else if (draw() < s.nonJsonRate) fault = { kind: 'html', status: 502, body: 'html' };
		else if (draw() < s.errorRate) fault = { kind: 'status', status: s.errorStatus, body: s.errorBody };
		if (!fault) return null;
		const afterCommit = s.faultTiming ? s.faultTiming === 'after' : ambiguousByDefault(write, fault.kind, fault.status);
		return { ...fault, retryAfter: undefined, delayMs: 0, afterCommit, source: 'random' };
	}

	/** Numbers in [0, 1) for one request: from the seed, the request and its attempt number when seeded. */
	private draws(request: string): () => number {
		const { seed } = this.settings;
		if (seed === undefined) return Math.random;
		const attempt = this.attempts.get(request) ?? 0;
		this.attempts.set(request, attempt + 1);
		const digest = createHash('sha256').update(`${seed}\n${attempt}\n${request}`).digest();
		let offset = 0;
		return () => {
			const value = digest.readUInt32BE(offset) / 2 ** 32;
			offset += 4;
			return value;
		};
	}
}

/** Writes that fail with a 5xx or a dropped connection were committed by default: the ambiguous case. */
const ambiguousByDefault = (write: boolean, kind: FaultKind, status: number): boolean =>
	write && (kind === 'drop' || kind === 'html' || status >= 500);

/** `path` matches the same path or any path below it: /contacts matches /contacts and /contacts/5. */
function matches(match: QueuedFault['match'], method: string, path: string): boolean {
	if (match.method && match.method.toUpperCase() !== method) return false;
	if (!match.path) return true;
	const prefix = match.path.endsWith('/') ? match.path : `${match.path}/`;
	return path === match.path || path.startsWith(prefix);
}

/**
 * What a faulted request is answered (not used for drops). A 'json' body is the error in the variant's
 * format. A 429 without its own retryAfter waits 1 s, named the way the variant names a wait. The fault's
 * extra headers are added by the pipeline, last.
 */
export function faultAnswer(fault: PickedFault, variant: Readonly<VariantSettings>, now = Date.now()): Answer {
	const answer = faultBody(fault, variant);
	const { retryAfter } = fault;
	if (retryAfter === undefined && fault.status === 429) Object.assign(answer.headers, defaultWait(variant, now));
	else if (retryAfter !== undefined && retryAfter !== null) answer.headers['Retry-After'] = String(retryAfter);
	return answer;
}

function faultBody({ status, body }: PickedFault, variant: Readonly<VariantSettings>): Answer {
	if (body === 'html') return { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: htmlErrorPage(status) };
	if (body === 'empty') return { status, headers: {}, body: '' };
	if (body === 'text') return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: statusText(status) };
	if (body === 'json') return errorAnswer(status, faultMessage(status), undefined, variant.errorFormat);
	return { status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
}

/** One second, as Retry-After in the variant's form, or (no-retry-after) as the rate-limit reset alone. */
function defaultWait(variant: Readonly<VariantSettings>, now: number): Record<string, string> {
	if (variant.retryAfter !== 'none') return retryAfterHeader(1, now, variant);
	return resetHeader(now + 1000, now, variant);
}

const faultMessage = (status: number): string =>
	status === 429 ? 'Too many requests: rate limit exceeded' : `${statusText(status)} (simulated fault)`;

/** The kind of page a reverse proxy answers when the application behind it fails. */
const htmlErrorPage = (status: number): string =>
	`<html>\r\n<head><title>${status} ${statusText(status)}</title></head>\r\n<body>\r\n<center><h1>${status} ${statusText(status)}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
