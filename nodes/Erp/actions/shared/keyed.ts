import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErpClient, Outcome } from '../../../shared/transport/client';
import { answerOf } from '../../../shared/transport/client';
import type { ErpResponse, UnclearResolution } from '../../../shared/transport/types';
import { isObject } from '../../../shared/transport/types';
import { argumentLabel, isToolNode } from './tool';
import { isBlank } from '../../../shared/values';
import { writtenItem } from './version';

/**
 * How a resource's records are found by their natural key (a contact's or employee's e-mail, a product's SKU):
 * what lets an import be run twice without duplicates, and an unclear create be checked instead of guessed.
 */
export interface KeyLookup {
	noun: string;
	key: string;
	/** The list endpoint's pages filtered by the key. An ERP that ignores the filter is matched record by record. */
	pages(client: ErpClient, value: string, itemIndex: number): AsyncGenerator<IDataObject[]>;
}

/** Sends the create's POST (ErpClient.exchange): an unclear failure comes back to be settled by a lookup. */
export type SendCreate = () => Promise<Outcome>;

export interface Created {
	record: IDataObject;
	recovered?: boolean;
}

// How far the ERP's clock may lag n8n's when a record's created_at is compared with the start of its create.
const CLOCK_SKEW_MS = 10 * 60_000;

const normalized = (lookup: KeyLookup, value: unknown) => (lookup.key === 'email' ? String(value).trim().toLowerCase() : String(value).trim());

export async function findByKey(client: ErpClient, lookup: KeyLookup, value: string, itemIndex: number): Promise<IDataObject[]> {
	const wanted = normalized(lookup, value);
	const matches: IDataObject[] = [];
	for await (const page of lookup.pages(client, value, itemIndex)) {
		matches.push(...page.filter((record) => !isBlank(record[lookup.key]) && normalized(lookup, record[lookup.key]) === wanted));
	}
	return matches;
}

/** The answer of a POST or PATCH, an unclear failure settled by `lookup` (each time it is unclear); without one, it fails. */
export async function settleUnclear(outcome: Outcome, lookup?: () => Promise<UnclearResolution>): Promise<ErpResponse> {
	let settled = outcome;
	while ('unclear' in settled && lookup) settled = await settled.unclear.settle(lookup());
	return answerOf(settled);
}

function keyOf(lookup: KeyLookup, body: IDataObject): string | undefined {
	const value = body[lookup.key];
	return (typeof value === 'string' || typeof value === 'number') && !isBlank(value) ? String(value) : undefined;
}

/** Whether the record holds what was sent (simple values only; the ERP may add or format others). */
function holdsSent(record: IDataObject, sent: IDataObject): boolean {
	return Object.entries(sent).every(([field, value]) => {
		if (typeof value === 'object' || record[field] === undefined || record[field] === null) return true;
		return String(record[field]).trim().toLowerCase() === String(value).trim().toLowerCase();
	});
}

/**
 * After an unclear create (no lookup before it): a record with the key, holding what was sent and created since
 * the request started, is the one it wrote. No record with the key created since then proves nothing was
 * written, so the create may be sent again. Anything else (no creation times, several candidates) stays unclear.
 */
function recoverByCreationTime(client: ErpClient, lookup: KeyLookup, body: IDataObject, itemIndex: number) {
	const key = keyOf(lookup, body);
	if (key === undefined) return undefined;
	const since = Date.now() - CLOCK_SKEW_MS;
	return async (): Promise<UnclearResolution> => {
		const dated = (await findByKey(client, lookup, key, itemIndex)).map((record) => ({ record, at: Date.parse(String(record.created_at)) }));
		if (dated.some(({ at }) => Number.isNaN(at))) return { unknown: true };
		const recent = dated.filter(({ at }) => at >= since);
		if (recent.length === 0) return { absent: true };
		const mine = recent.filter(({ record }) => holdsSent(record, body));
		return mine.length === 1 && recent.length === 1 ? { found: mine[0].record } : { unknown: true };
	};
}

/** After an unclear create that a lookup preceded: a record with the key that the lookup did not see is the new one. */
export function recoverBySeenIds(client: ErpClient, lookup: KeyLookup, key: string, seen: IDataObject[], itemIndex: number) {
	const before = new Set(seen.map((record) => String(record.id)));
	return async (): Promise<UnclearResolution> => {
		const found = await findByKey(client, lookup, key, itemIndex);
		// Records without an ID cannot be told apart from the ones seen before.
		if (found.some((record) => record.id === undefined || record.id === null)) return { unknown: true };
		const fresh = found.filter((record) => !before.has(String(record.id)));
		if (fresh.length === 0) return { absent: true };
		return fresh.length === 1 ? { found: fresh[0] } : { unknown: true };
	};
}

/**
 * Sends a create and returns its item (writtenItem: the record the ERP answered with, and what was sent). An unclear
 * failure is settled by `recover`; so is a success without the record, which some ERPs answer (the document shows no
 * answer for most).
 */
export async function createKeyed(
	client: ErpClient,
	lookup: KeyLookup,
	body: IDataObject,
	itemIndex: number,
	send: SendCreate,
	recover = recoverByCreationTime(client, lookup, body, itemIndex),
): Promise<Created> {
	const response = await settleUnclear(await send(), recover);
	if (isObject(response.data)) return { record: writtenItem(client.node, body, response.data), ...(response.recovered ? { recovered: true } : {}) };
	const resolution = recover ? await recover() : undefined;
	if (resolution && 'found' in resolution) return { record: writtenItem(client.node, body, resolution.found) };
	const message = `The ERP answered that the ${lookup.noun} was created but sent no ${lookup.noun} back`;
	throw new NodeApiError(client.node, { message }, {
		message,
		description: `It was most likely created${recover ? `, yet no new ${lookup.noun} with its ${lookup.key} could be found` : ''}: check in the ERP before running this item again.`,
		itemIndex,
	});
}

/** A created record as an item: marked when it was found after an unclear failure. */
export const createdItem = ({ record, recovered }: Created): IDataObject => (recovered ? { ...record, recovered } : record);

/** The key of an item that must have one (Create or Update, Create or Get), or an error naming the field. */
export function requireKey(this: IExecuteFunctions, lookup: KeyLookup, body: IDataObject, itemIndex: number): string {
	const key = keyOf(lookup, body);
	if (key !== undefined) return key;
	const node = this.getNode();
	const field = argumentLabel(node, `columns.value.${lookup.key}`, `The ${lookup.key} field`);
	throw new NodeOperationError(node, `${field} is empty: it is how an existing ${lookup.noun} is found`, {
		itemIndex,
		description: isToolNode(node)
			? `Give the ${lookup.noun}'s ${lookup.key}; nothing was sent to the ERP.`
			: `Map a value to ${lookup.key} under Fields (or give every input item a ${lookup.key} field).`,
	});
}

const locks = new WeakMap<ErpClient, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier work of this node run on the same key: two items with one key never both create. */
async function oneAtATime<T>(client: ErpClient, key: string, work: () => Promise<T>): Promise<T> {
	const byKey = locks.get(client) ?? new Map<string, Promise<unknown>>();
	locks.set(client, byKey);
	const run = (byKey.get(key) ?? Promise.resolve()).then(work, work);
	const settled = run.catch(() => undefined);
	byKey.set(key, settled);
	try {
		return await run;
	} finally {
		if (byKey.get(key) === settled) byKey.delete(key);
	}
}

export interface KeyedOutcome extends Created {
	action: 'created' | 'updated' | 'existing';
}

/**
 * Looks the key up and sends the create only when no record has it; with exactly one match, `whenFound` decides
 * (update it, or keep it), still holding the key so no other item of the run changes that record meanwhile.
 * Several matches are an error naming their IDs, and nothing is written.
 */
export async function createUnlessFound(
	client: ErpClient,
	lookup: KeyLookup,
	body: IDataObject,
	key: string,
	itemIndex: number,
	actions: { create: SendCreate; whenFound: (record: IDataObject) => Promise<KeyedOutcome> },
): Promise<KeyedOutcome> {
	return await oneAtATime(client, `${lookup.noun}:${normalized(lookup, key)}`, async () => {
		const found = await findByKey(client, lookup, key, itemIndex);
		if (found.length > 1) {
			const ids = found.map((record) => String(record.id)).join(', ');
			throw new NodeOperationError(client.node, `${found.length} ${lookup.noun}s have the ${lookup.key} "${key}" (IDs ${ids}): nothing was written`, {
				itemIndex,
				description: `Merge or remove the duplicates in the ERP so that one ${lookup.noun} has this ${lookup.key}, then run the item again.`,
			});
		}
		if (found.length === 1) return await actions.whenFound(found[0]);
		const recover = recoverBySeenIds(client, lookup, key, found, itemIndex);
		return { action: 'created', ...(await createKeyed(client, lookup, body, itemIndex, actions.create, recover)) };
	});
}

/** An outcome as the item's JSON: the record with what happened beside it. */
export const outcomeJson = ({ action, record, recovered }: KeyedOutcome): IDataObject => ({ ...record, action, ...(recovered ? { recovered: true } : {}) });
