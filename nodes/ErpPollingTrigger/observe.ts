import { NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from '../shared/transport/client';
import type { PollBudget } from './budget';
import type { WatchConfig } from './config';
import type { Observed } from './detect';
import type { Records } from './scan';
import { listAll, listForBaseline, lookUp, MAX_LOOKUPS_PER_POLL, readChosen } from './scan';
import type { PollState } from './state';
import { readStock } from './stock';

/** A field name the user typed must be one the ERP's records have, or the trigger would wait for nothing. */
function checkFieldsExist(client: ErpClient, config: WatchConfig, records: Records): void {
	if (records.size === 0) return;
	const named: Array<[string, string]> = config.fields.map((name) => ['Fields to Watch', name]);
	if (config.triggerOn === 'fieldValue') named.push(['Field', config.field]);
	if (named.length === 0) return;
	const present = new Set<string>();
	for (const record of records.values()) for (const name of Object.keys(record)) present.add(name);
	for (const [parameter, name] of named) {
		if (!present.has(name)) {
			throw new NodeOperationError(
				client.node,
				`${parameter}: the ERP's ${config.resource === 'list' ? `records of ${config.path}` : `${config.resource} records`} have no field "${name}"; use one of ${[...present].sort().join(', ')}`,
				{ failure: { cause: 'configuration-invalid' } },
			);
		}
	}
}

/**
 * For any list nothing says a record can be read by its ID, as the known resources' can: a remembered record a scan
 * did not show stays remembered as it was, and is forgotten once the scans of this many polls in a row missed it. A
 * record shifted between pages while a scan ran (a delete before it) is missed by that scan only.
 */
export const MISSES_TO_FORGET = 3;

function countMisses(previous: PollState | undefined, now: Records): { gone: string[]; missed: Record<string, number> } {
	const gone: string[] = [];
	const missed: Record<string, number> = {};
	for (const id of Object.keys(previous?.records ?? {})) {
		if (now.has(id)) continue;
		const misses = (previous?.missed?.[id] ?? 0) + 1;
		if (misses >= MISSES_TO_FORGET) gone.push(id);
		else missed[id] = misses;
	}
	return { gone, missed };
}

/**
 * Everything one poll reads from the ERP: the records (all pages; on the first look, scans until stable), the
 * remembered records the scan did not show (looked up one by one, up to MAX_LOOKUPS_PER_POLL and while the budget
 * lasts, the rest staying remembered for the next poll; for any list only counted, see MISSES_TO_FORGET), and for
 * Stock Below Threshold the products' stock (see readStock). `previous` undefined = first look, or a manual test.
 *
 * A list scan is never cut short: 10,000 contacts at 100 records a page are 100 requests, far inside any budget
 * (bench/README.md has the timings).
 */
export async function observe(client: ErpClient, config: WatchConfig, previous: PollState | undefined, firstLook: boolean, budget: PollBudget): Promise<Observed> {
	let now: Records;
	let gone: string[] = [];
	let missed: Record<string, number> | undefined;
	if (config.productIds) {
		now = await readChosen(client, config.productIds);
	} else if (config.resource === 'list') {
		now = firstLook ? await listForBaseline(client, config) : await listAll(client, config);
		({ gone, missed } = countMisses(previous, now));
	} else {
		now = firstLook ? await listForBaseline(client, config) : await listAll(client, config);
		const missing = Object.keys(previous?.records ?? {}).filter((id) => !now.has(id));
		const looked = await lookUp(client, config, missing.slice(0, MAX_LOOKUPS_PER_POLL), budget);
		for (const [id, record] of looked.found) now.set(id, record);
		gone = looked.gone;
	}
	checkFieldsExist(client, config, now);
	if (config.triggerOn !== 'lowStock') return { now, gone, ...(missed && Object.keys(missed).length > 0 ? { missed } : {}) };

	const { stock, field, cursor } = await readStock(client, config, now, previous, budget);
	return { now, gone, stock, stockField: field, stockCursor: cursor };
}
