import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

export type HttpMethod = Extract<IHttpRequestMethods, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>;
export type Query = Record<string, string | number | boolean>;
/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a request does, in the operation's words, for its errors: `action` ("The ERP refused to …"), `noun` (singular),
 * `id` (the record it is about; a POST without one creates), `unclearAdvice` (replaces "check in the ERP …"). */
export type Doing = { action: string; noun: string; id?: number | string; unclearAdvice?: string };
/** `path` below the base URL; `expect`: what a success must carry (an object, a list where missing is empty, anything). */
export type ErpRequest = { method: HttpMethod; path: string; doing: Doing; qs?: Query; body?: IDataObject; itemIndex?: number; expect?: 'record' | 'list' | 'any' };
/** What the caller's lookup after an unclear POST or PATCH found: the record it wrote, proof that nothing was written
 * (it may be sent again, but not after a timeout), or neither (it fails: "the ERP may have done it"). */
export type UnclearResolution = { found: IDataObject } | { absent: true } | { unknown: true };

/** What came back over the wire, before the envelope is opened. */
export type RawResponse = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: unknown };
/** The opened envelope; `recovered`: an unclear POST failure settled by finding the record it wrote (`data`). */
export type ErpResponse = { statusCode: number; data: unknown; meta?: { page?: number; perPage?: number; total?: number }; recovered?: boolean };
/** A wait the ERP named: how long from now, and the instant it named when it named one (an HTTP date, an epoch reset). */
export type NamedWait = { ms: number; atMs?: number };

/** The most requests a run (its Concurrency) or all runs together may have on the wire to one ERP. */
export const CONCURRENCY_LIMIT = 50;
/** A run's settings: a request's time limit, its retries, all its waits at most (ms), requests on the wire at once, records
 * per page (undefined: the node chooses), and an instant (epoch ms) by which every request, retry and wait ends. */
export type TransportOptions = { timeoutMs: number; maxRetries: number; maxTotalWaitMs: number; concurrency: number; pageSize?: number; deadlineAt?: number };
// Concurrency chosen from the remote sweeps in bench/README.md.
export const DEFAULT_TRANSPORT_OPTIONS: TransportOptions = { timeoutMs: 30_000, maxRetries: 5, maxTotalWaitMs: 300_000, concurrency: 5 };
