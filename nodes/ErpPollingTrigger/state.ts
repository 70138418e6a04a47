import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import type { WatchConfig } from './config';

/**
 * What the trigger remembers between polls, in n8n's static data of the node: per record ID a short token, never
 * the record. Tokens by Trigger On:
 * - Record Added: '' (the ID is all that is needed);
 * - Record (Added or) Updated with Fields to Watch: the JSON of those fields' values (so a change can show the
 *   previous value);
 * - Record (Added or) Updated on every field: 4 characters of digest per field, in the order of `fields`;
 * - Field Becomes a Value: '1' when the field has the value, '0' when not;
 * - Stock Below Threshold: 'L' when reported low, 'A' when armed (at or above the threshold), '?' when the first
 *   look listed the product but could not read its stock in time (its first read then takes note, as the baseline).
 */
export interface PollState {
	version: 1;
	/** stateKey() of the configuration the tokens belong to. */
	key: string;
	/** Every-field mode: the field names the token chunks stand for. */
	fields?: string[];
	/** The largest page size the ERP accepted after refusing a larger one, so that no later poll asks too much again. */
	pageSize?: number;
	/** How many polls have started an execution with this memory (see handedOver.ts); absent in older memories: 0. */
	generation?: number;
	/** Stock Below Threshold: the product field the node found to hold each product's total stock. */
	stockField?: string;
	/** Stock Below Threshold: the ID of the last product whose stock was read one by one; the next poll goes on after it. */
	stockCursor?: string;
	/**
	 * Any list: remembered IDs the last polls' scans missed, with how many polls in a row (see MISSES_TO_FORGET). Lost
	 * with a restart, it only delays forgetting a deleted record: nothing is reported for it.
	 */
	missed?: Record<string, number>;
	records: Record<string, string>;
}

/** The Stock Below Threshold token of a product listed by the first look whose stock it could not read in time. */
export const STOCK_PENDING = '?';

export function loadState(staticData: IDataObject, key: string): PollState | undefined {
	const state = staticData.erpPoll as PollState | undefined;
	if (!state || state.version !== 1 || state.key !== key || typeof state.records !== 'object') return undefined;
	return state;
}

export function saveState(staticData: IDataObject, state: PollState): void {
	staticData.erpPoll = state as unknown as IDataObject;
}

const CHUNK = 4;

/** 24 bits of a field value's digest: a change goes unseen only if every changed field collides (1 in 16.7 million each). */
function chunk(value: unknown): string {
	return createHash('sha1')
		.update(value === undefined ? '\u0000' : JSON.stringify(value))
		.digest('base64url')
		.slice(0, CHUNK);
}

export interface Change {
	previous?: unknown;
	current: unknown;
}

/** How records of one configuration are turned into tokens and compared. */
export interface Tokens {
	/** The fields the every-field tokens stand for, after this poll. */
	fields?: string[];
	of(record: IDataObject): string;
	/** The watched fields whose values differ between an earlier token and the record now. */
	changes(previous: string, record: IDataObject): Record<string, Change>;
}

/** Tokens for Record Updated and Record Added or Updated. */
export function changeTokens(config: WatchConfig, previousFields: string[] | undefined, records: Iterable<IDataObject>): Tokens {
	if (config.fields.length > 0) {
		const listed = config.fields;
		return {
			of: (record) => JSON.stringify(listed.map((name) => record[name] ?? null)),
			changes(previous, record) {
				const before = JSON.parse(previous) as unknown[];
				const changed: Record<string, Change> = {};
				listed.forEach((name, i) => {
					const current = record[name] ?? null;
					if (JSON.stringify(before[i] ?? null) !== JSON.stringify(current)) changed[name] = { previous: before[i] ?? null, current };
				});
				return changed;
			},
		};
	}
	// Every field: the union of the fields seen so far and now. A field the ERP starts to send is not a change of
	// every record (it had no earlier chunk to compare with); a known field a record no longer has is.
	const known = new Set(previousFields ?? []);
	for (const record of records) for (const name of Object.keys(record)) if (name !== config.idField) known.add(name);
	const fields = [...known].sort();
	const earlierIndex = new Map((previousFields ?? []).map((name, i) => [name, i]));
	return {
		fields,
		of: (record) => fields.map((name) => chunk(record[name])).join(''),
		changes(previous, record) {
			const changed: Record<string, Change> = {};
			for (const name of fields) {
				const i = earlierIndex.get(name);
				if (i === undefined) continue;
				if (previous.slice(i * CHUNK, (i + 1) * CHUNK) !== chunk(record[name])) changed[name] = { current: record[name] ?? null };
			}
			return changed;
		},
	};
}
