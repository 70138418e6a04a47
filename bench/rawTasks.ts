/** The messages between the bench and its raw HTTP client process (rawClient.ts). */

export interface Api {
	baseUrl: string;
	token: string;
}

export type ContactRow = Record<'first_name' | 'last_name' | 'email' | 'company', string>;

export type RawTask =
	| { kind: 'listAll'; api: Api; perPage: number; concurrency: number }
	| { kind: 'bulkCreate'; api: Api; rows: ContactRow[]; concurrency: number };

export interface RawResult {
	/** Records read or created. */
	count: number;
	seconds: number;
}

export type RawReply = { ok: true; result: RawResult } | { ok: false; error: string };
