import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import { paginate } from '../../transport/paginate';
import type { ErpResponse, UnclearResolution } from '../../transport/types';
import { isObject } from '../../transport/types';
import { isBlank } from './values';

/**
 * A resource with a natural key (a contact's or employee's e-mail, a product's SKU): what lets an import be run
 * twice without duplicates, and an unclear create be checked instead of guessed.
 */
export interface KeyedResource {
	noun: string;
	/** The key's API field, also the list endpoint's filter of that name (docs/api-assumptions.md). */
	key: 'email' | 'sku';
	/** The list endpoint (GET). */
	listPath: string;
	/** The create endpoint (POST). */
	createPath: string;
}

async function create(client: ErpClient, resource: KeyedResource, body: IDataObject, itemIndex: number, resolveUnclear?: () => Promise<UnclearResolution>) {
	return await client.request({ method: 'POST', path: resource.createPath, body, itemIndex, resolveUnclear });
}

// How far the ERP's clock may lag n8n's when a record's created_at is compared with the start of its create.
const CLOCK_SKEW_MS = 10 * 60_000;

const normalized = (resource: KeyedResource, value: unknown) =>
	resource.key === 'email' ? String(value).trim().toLowerCase() : String(value).trim();

/**
 * The records whose key is `value`, read through the list endpoint's filter. Every returned page is checked,
 * so an ERP that ignores the filter (and returns everything) is matched record by record: correct, but it
 * reads the whole list for each lookup.
 */
export async function findByKey(client: ErpClient, resource: KeyedResource, value: string, itemIndex: number): Promise<IDataObject[]> {
	const wanted = normalized(resource, value);
	const matches: IDataObject[] = [];
	for await (const page of paginate(client, { path: resource.listPath, query: { [resource.key]: value }, itemIndex })) {
		for (const record of page) if (!isBlank(record[resource.key]) && normalized(resource, record[resource.key]) === wanted) matches.push(record);
	}
	return matches;
}

/** The key's value in a body, or undefined when the body has none. */
export function keyOf(resource: KeyedResource, body: IDataObject): string | undefined {
	const value = body[resource.key];
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
export function recoverByCreationTime(client: ErpClient, resource: KeyedResource, body: IDataObject, itemIndex: number) {
	const key = keyOf(resource, body);
	if (key === undefined) return undefined;
	const since = Date.now() - CLOCK_SKEW_MS;
	return async (): Promise<UnclearResolution> => {
		const dated = (await findByKey(client, resource, key, itemIndex)).map((record) => ({ record, at: Date.parse(String(record.created_at)) }));
		if (dated.some(({ at }) => Number.isNaN(at))) return { unknown: true };
		const recent = dated.filter(({ at }) => at >= since);
		if (recent.length === 0) return { absent: true };
		const mine = recent.filter(({ record }) => holdsSent(record, body));
		return mine.length === 1 && recent.length === 1 ? { found: mine[0].record } : { unknown: true };
	};
}

/** After an unclear create that a lookup preceded: a record with the key that the lookup did not see is the new one. */
function recoverBySeenIds(client: ErpClient, resource: KeyedResource, key: string, seen: IDataObject[], itemIndex: number) {
	const before = new Set(seen.map((record) => String(record.id)));
	return async (): Promise<UnclearResolution> => {
		const fresh = (await findByKey(client, resource, key, itemIndex)).filter((record) => !before.has(String(record.id)));
		if (fresh.length === 0) return { absent: true };
		return fresh.length === 1 ? { found: fresh[0] } : { unknown: true };
	};
}

const locks = new WeakMap<ErpClient, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier work of this node run on the same key: two items with one key never both create. */
async function oneAtATime<T>(client: ErpClient, key: string, work: () => Promise<T>): Promise<T> {
	const byKey = locks.get(client) ?? new Map<string, Promise<unknown>>();
	locks.set(client, byKey);
	const previous = byKey.get(key) ?? Promise.resolve();
	const run = previous.then(work, work);
	const settled = run.catch(() => undefined);
	byKey.set(key, settled);
	try {
		return await run;
	} finally {
		if (byKey.get(key) === settled) byKey.delete(key);
	}
}

/** The key of an item that must have one (Create or Update, Create If New), or an error naming the field. */
export function requireKey(this: IExecuteFunctions, resource: KeyedResource, body: IDataObject, itemIndex: number): string {
	const key = keyOf(resource, body);
	if (key !== undefined) return key;
	throw new NodeOperationError(this.getNode(), `The ${resource.key} field is empty: it is how an existing ${resource.noun} is found`, {
		itemIndex,
		description: `Map a value to ${resource.key} under Fields (or give every input item a ${resource.key} field).`,
	});
}

/**
 * The record a create answered with. The document shows no answer for most creates, and some ERPs answer
 * 201 without the record: then it is found by its key, as after an unclear failure.
 */
async function settled(
	client: ErpClient,
	resource: KeyedResource,
	response: ErpResponse,
	itemIndex: number,
	recover?: () => Promise<UnclearResolution>,
): Promise<{ record: IDataObject; recovered?: boolean }> {
	if (isObject(response.data)) return { record: response.data, ...(response.recovered ? { recovered: true } : {}) };
	const resolution = recover ? await recover() : undefined;
	if (resolution && 'found' in resolution) return { record: resolution.found };
	const message = `The ERP answered that the ${resource.noun} was created but sent no ${resource.noun} back`;
	throw new NodeApiError(client.node, { message }, {
		message,
		description: `It was most likely created${recover ? `, yet no new ${resource.noun} with its ${resource.key} could be found` : ''}: check in the ERP before running this item again.`,
		itemIndex,
	});
}

/** A created record as an item: marked when it was found after an unclear failure. */
export const createdItem = ({ record, recovered }: { record: IDataObject; recovered?: boolean }): IDataObject =>
	recovered ? { ...record, recovered } : record;

/** Creates a record; an unclear failure, or a success without the record, is settled by looking its key up. */
export async function createKeyed(
	client: ErpClient,
	resource: KeyedResource,
	body: IDataObject,
	itemIndex: number,
): Promise<{ record: IDataObject; recovered?: boolean }> {
	const recover = recoverByCreationTime(client, resource, body, itemIndex);
	return await settled(client, resource, await create(client, resource, body, itemIndex, recover), itemIndex, recover);
}

export interface KeyedOutcome {
	action: 'created' | 'updated' | 'existing';
	record: IDataObject;
	recovered?: boolean;
}

/**
 * Looks the key up and creates the record only when none has it; with exactly one match, `whenFound` decides
 * (update it, or keep it), still holding the key so no other item of the run changes that record meanwhile.
 * Several matches are an error naming their IDs, and nothing is written.
 */
export async function createUnlessFound(
	node: INode,
	client: ErpClient,
	resource: KeyedResource,
	body: IDataObject,
	key: string,
	itemIndex: number,
	whenFound: (record: IDataObject) => Promise<KeyedOutcome>,
): Promise<KeyedOutcome> {
	return await oneAtATime(client, `${resource.noun}:${normalized(resource, key)}`, async () => {
		const found = await findByKey(client, resource, key, itemIndex);
		if (found.length > 1) {
			const ids = found.map((record) => String(record.id)).join(', ');
			throw new NodeOperationError(node, `${found.length} ${resource.noun}s have the ${resource.key} "${key}" (IDs ${ids}): nothing was written`, {
				itemIndex,
				description: `Merge or remove the duplicates in the ERP so that one ${resource.noun} has this ${resource.key}, then run the item again.`,
			});
		}
		if (found.length === 1) return await whenFound(found[0]);
		const recover = recoverBySeenIds(client, resource, key, found, itemIndex);
		const response = await create(client, resource, body, itemIndex, recover);
		return { action: 'created', ...(await settled(client, resource, response, itemIndex, recover)) };
	});
}

/** An outcome as the item's JSON: the record with what happened beside it. */
export function outcomeJson({ action, record, recovered }: KeyedOutcome): IDataObject {
	return { ...record, action, ...(recovered ? { recovered: true } : {}) };
}
