import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

export type HttpMethod = Extract<IHttpRequestMethods, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>;

export type Query = Record<string, string | number | boolean>;

/** The most requests a run (its Concurrency) or all runs together may have on the wire to one ERP. */
export const CONCURRENCY_LIMIT = 50;

/** A wait the ERP named: how long from now, and the instant it named when it named one (an HTTP date, an epoch reset). */
export type NamedWait = { ms: number; atMs?: number };

/** A JSON object: not null, not an array. */
export const isObject = (value: unknown): value is IDataObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a request does, in the words of the operation that sends it: every error about it is worded from these. */
export interface Doing {
	/** As in "The ERP refused to …": 'mark invoice 12 as paid', 'create the contact', 'list contacts'. */
	action: string;
	/** The kind of record, singular: 'invoice'. */
	noun: string;
	/** The one record the request is about: its 404 then says that record was not found. A POST without one creates. */
	id?: number | string;
	/** For a POST or PATCH: what to do after an unclear failure left it undecided (replaces "check in the ERP …"). */
	unclearAdvice?: string;
}

/** What the caller's lookup after an unclear POST or PATCH found: the record it wrote, proof that nothing was written
 * (it may be sent again, but not after a timeout), or neither (it fails: "the ERP may have done it"). */
export type UnclearResolution = { found: IDataObject } | { absent: true } | { unknown: true };

export interface ErpRequest {
	method: HttpMethod;
	/** Path below the base URL, e.g. `/contacts/42`. */
	path: string;
	doing: Doing;
	qs?: Query;
	body?: IDataObject;
	itemIndex?: number;
	/** What a success must carry: an object (never an item with null json), a list (missing = empty), or anything. */
	expect?: 'record' | 'list' | 'any';
}

/** What came back over the wire, before the envelope is opened. */
export type RawResponse = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: unknown };

/** The opened envelope; `recovered`: an unclear POST failure settled by finding the record it wrote (`data`). */
export type ErpResponse = { statusCode: number; data: unknown; meta?: { page?: number; perPage?: number; total?: number }; recovered?: boolean };

/**
 * A run's settings: each request's time limit, its retries (after a 429, or a 5xx/network failure of an idempotent
 * request), all its waits together at most (ms), the requests on the wire at once (items side by side, or the pages
 * a Return All reads ahead), the records asked per page (the user's Page Size; undefined: the node chooses), and an
 * instant (epoch ms) by which every request, retry and wait ends (the ERP Trigger's answer to the ERP cannot wait longer).
 */
export type TransportOptions = { timeoutMs: number; maxRetries: number; maxTotalWaitMs: number; concurrency: number; pageSize?: number; deadlineAt?: number };

// Concurrency chosen from the remote sweeps in bench/README.md.
export const DEFAULT_TRANSPORT_OPTIONS: TransportOptions = { timeoutMs: 30_000, maxRetries: 5, maxTotalWaitMs: 300_000, concurrency: 5 };
