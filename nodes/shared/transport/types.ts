import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

export type HttpMethod = Extract<IHttpRequestMethods, 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'>;

export type Query = Record<string, string | number | boolean>;

/** The most requests a run (its Concurrency) or all runs together may have on the wire to one ERP. */
export const CONCURRENCY_LIMIT = 50;

/** A wait the ERP named: how long from now, and the instant it named when it named one (an HTTP date, an epoch reset). */
export type NamedWait = { ms: number; atMs?: number };

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/**
 * What a lookup after an unclear POST failure found out: the record (the POST succeeds with it), proof that nothing
 * was written (it may be sent again, but not after a timeout), or neither (it fails: "the ERP may have done it").
 */
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
	/** For a POST or PATCH that failed unclearly (the ERP may have done it): what a lookup finds (UnclearResolution). */
	resolveUnclear?: () => Promise<UnclearResolution>;
	/** For a request the ERP refused (400 or 422): a changed request to send instead (paging's smaller page size). */
	amendRefused?: (refusal: { statusCode: number; body: unknown }) => ErpRequest | undefined;
}

/** What came back over the wire, before the envelope is opened. */
export interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

export interface ErpResponse {
	statusCode: number;
	data: unknown;
	meta?: { page?: number; perPage?: number; total?: number };
	/** True when an unclear POST failure was resolved by finding the record it wrote (`data` is that record). */
	recovered?: boolean;
}

/**
 * A run's settings: each request's time limit, its retries (after a 429, or a 5xx/network failure of an idempotent
 * request), all its waits together at most (ms), the requests on the wire at once (items side by side, or the pages
 * a Return All reads ahead), the records asked per page (the user's Page Size; undefined: the node chooses), and an
 * instant by which it all ends (the ERP Trigger's answer to the ERP cannot wait longer).
 */
export interface TransportOptions {
	timeoutMs: number;
	maxRetries: number;
	maxTotalWaitMs: number;
	concurrency: number;
	pageSize?: number;
	/** An instant (epoch ms) by which every request, retry and wait ends, whatever the other limits allow. */
	deadlineAt?: number;
}

export const DEFAULT_TRANSPORT_OPTIONS: TransportOptions = {
	timeoutMs: 30_000,
	maxRetries: 5,
	maxTotalWaitMs: 300_000,
	// Chosen from the remote sweeps in bench/README.md.
	concurrency: 5,
};
