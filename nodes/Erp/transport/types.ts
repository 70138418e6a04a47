import type { IDataObject, IHttpRequestMethods } from 'n8n-workflow';

export type HttpMethod = Extract<IHttpRequestMethods, 'GET' | 'POST' | 'PUT' | 'DELETE'>;

export type Query = Record<string, string | number | boolean>;

export interface ErpRequest {
	method: HttpMethod;
	/** Path below the base URL, e.g. `/contacts/42`. */
	path: string;
	qs?: Query;
	body?: IDataObject;
	itemIndex?: number;
	/** 'record': a success must carry an object as data. */
	expect?: 'record' | 'list' | 'any';
	/** After an unclear POST failure: proves whether the ERP wrote it (see the transport's retry rules). */
	resolveUnclear?: () => Promise<UnclearResolution>;
}

export type UnclearResolution = { found: IDataObject } | { absent: true } | { unknown: true };

/** What came back over the wire, before the envelope is opened. */
export interface RawResponse {
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: unknown;
}

export interface ListMeta {
	page?: number;
	perPage?: number;
	total?: number;
}

export interface ErpResponse {
	statusCode: number;
	data: unknown;
	meta?: ListMeta;
	/** The data was found by `resolveUnclear` after an unclear failure. */
	recovered?: boolean;
}

export interface TransportOptions {
	/** Per-request time limit (ms). */
	timeoutMs: number;
	/** Retries after a 429, or after a 5xx/network failure of an idempotent request. */
	maxRetries: number;
	/** Upper bound for all back-off waits of one request together (ms). */
	maxTotalWaitMs: number;
	/** Requests on the wire at once: items side by side, or the pages a Return All reads ahead. */
	concurrency: number;
	/** Records asked per page; undefined = the node chooses. */
	pageSize?: number;
}

export const DEFAULT_TRANSPORT_OPTIONS: TransportOptions = {
	timeoutMs: 30_000,
	maxRetries: 5,
	maxTotalWaitMs: 300_000,
	concurrency: 1,
};
