/** The messages between the bench and its raw HTTP client process (rawClient.ts). */

export interface Api {
	baseUrl: string;
	token: string;
}

export type ContactRow = Record<'first_name' | 'last_name' | 'email' | 'company', string>;

export type RawTask =
	| { kind: 'listAll'; api: Api; perPage: number; concurrency: number }
	/** POST each row to `path`; with `then`, POST `<path>/<new id>/<then>` right after, as the item's second call. */
	| { kind: 'create'; api: Api; path: string; rows: object[]; then?: string; concurrency: number };

export interface RawResult {
	/** Records read, or items completed. */
	count: number;
	seconds: number;
}

export type RawReply = { ok: true; result: RawResult } | { ok: false; error: string };
