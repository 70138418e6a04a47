import type { IDataObject } from 'n8n-workflow';

import { isLowStock, type StockSeen } from '../shared/lowStock';
import type { WatchConfig } from './config';
import type { Records } from './scan';
import type { Change, PollState, Tokens } from './state';
import { STOCK_PENDING } from './state';

/** One thing to report: which record, and what happened to it. */
export interface Detected {
	kind: 'added' | 'updated' | 'value' | 'lowStock';
	id: string;
	record: IDataObject;
	changes?: Record<string, Change>;
	stock?: StockSeen;
}

export interface Comparison {
	detected: Detected[];
	records: Record<string, string>;
	/**
	 * The memory learnt something, with nothing reported, that the next poll would judge differently without it.
	 * n8n 2.41 and 1.123 (classic scheduler) save a polling trigger's memory only when a poll starts an execution, so
	 * a restart would lose it:
	 * - a token went back (an invoice no longer overdue, a product restocked): the next time the field takes the
	 *   value, or the stock falls, would go unreported;
	 * - a new record under Record Updated: after a restart its next change would become its first remembered value;
	 * - a record the ERP said is gone: it would be looked up again at every poll.
	 * A new record that is reported, or whose token is the one an unknown record would get anyway (not at the value,
	 * stock above the threshold), needs no save.
	 */
	unsaved: boolean;
}

export interface Observed {
	/** The records seen this poll (the scan, and remembered ones looked up). */
	now: Records;
	/** Remembered IDs the ERP answered 404 for (for any list: missed by the scans of MISSES_TO_FORGET polls in a row). */
	gone: string[];
	/** Any list: remembered IDs this poll's scan missed too, with how many polls in a row missed them (see PollState.missed). */
	missed?: Record<string, number>;
	/** Stock totals and thresholds, for Stock Below Threshold: of the products whose stock this poll read. */
	stock?: Map<string, StockSeen>;
	/** Stock Below Threshold: the product field found to hold the total stock, and where the reads one by one stopped. */
	stockField?: string;
	stockCursor?: string;
}

export function hasValue(record: IDataObject, config: WatchConfig): boolean {
	const value = record[config.field];
	return value !== undefined && value !== null && typeof value !== 'object' && String(value) === config.value;
}

/**
 * Compares what the ERP shows now with what the trigger remembers. Without a memory (first activation, or a new
 * configuration) it takes a baseline: everything is remembered, and reported only with Report Existing.
 * Remembered records the poll did not see stay remembered unchanged, unless the ERP said they are gone.
 */
export function compare(config: WatchConfig, previous: PollState | undefined, observed: Observed, tokens?: Tokens): Comparison {
	const baseline = previous === undefined;
	const records: Record<string, string> = { ...(previous?.records ?? {}) };
	for (const id of observed.gone) delete records[id];
	const detected: Detected[] = [];
	let unsaved = observed.gone.length > 0;

	for (const [id, record] of observed.now) {
		const before = previous?.records[id];
		const known = before !== undefined;
		switch (config.triggerOn) {
			case 'recordAdded':
				records[id] = '';
				if (!known && (!baseline || config.reportExisting)) detected.push({ kind: 'added', id, record });
				break;
			case 'recordUpdated':
			case 'recordAddedOrUpdated': {
				const token = (tokens as Tokens).of(record);
				records[id] = token;
				if (!known) {
					if (config.triggerOn === 'recordAddedOrUpdated' && (!baseline || config.reportExisting)) detected.push({ kind: 'added', id, record });
					else unsaved = true;
				} else if (before !== token) {
					const changes = (tokens as Tokens).changes(before, record);
					if (Object.keys(changes).length > 0) detected.push({ kind: 'updated', id, record, changes });
				}
				break;
			}
			case 'fieldValue': {
				const token = hasValue(record, config) ? '1' : '0';
				records[id] = token;
				if (token === '1' && before !== '1' && (!baseline || config.reportExisting)) detected.push({ kind: 'value', id, record });
				if (token === '0' && before === '1') unsaved = true;
				break;
			}
			case 'lowStock': {
				const stock = observed.stock?.get(id);
				// Not read this poll: the remembered token stays; a product the first look listed waits for its first read.
				if (!stock) {
					if (baseline) records[id] = STOCK_PENDING;
					break;
				}
				const low = isLowStock(stock);
				records[id] = low ? 'L' : 'A';
				const firstRead = baseline || before === STOCK_PENDING;
				if (low && before !== 'L' && (!firstRead || config.reportExisting)) detected.push({ kind: 'lowStock', id, record, stock });
				// A restart losing a re-arm, or a pending product's first read, would leave the next fall unreported.
				if ((!low && before === 'L') || before === STOCK_PENDING) unsaved = true;
				break;
			}
		}
	}
	return { detected, records, unsaved };
}
