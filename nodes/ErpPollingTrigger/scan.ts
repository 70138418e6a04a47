import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/transport/errors';
import { forEachConcurrently } from '../shared/concurrently';
import type { ErpClient } from '../shared/transport/client';
import { paginate } from '../shared/transport/paginate';
import type { PollBudget } from './budget';
import type { WatchConfig } from './config';

/** Records by ID (as a string: the key of the stored state). */
export type Records = Map<string, IDataObject>;

/** At most this many remembered records missing from a scan are looked up one by one per poll; the rest wait. */
export const MAX_LOOKUPS_PER_POLL = 100;

/** What the trigger watches: the list's path, what one record of it is called in messages, and how records are told apart. */
export type Watched = Pick<WatchConfig, 'resource' | 'path' | 'noun' | 'idField'>;

/** A record's key: the document's integer `id`, or for any list the value of ID Field (a number or a text). */
function idOf(client: ErpClient, record: IDataObject, { resource, path, idField }: Watched): string {
	const id = record[idField];
	if (resource !== 'list') {
		if (typeof id === 'number' && Number.isInteger(id)) return String(id);
		if (typeof id === 'string' && /^\d+$/.test(id)) return id;
		throw new NodeOperationError(
			client.node,
			`The ERP listed a record of ${path} without an integer id (${JSON.stringify(id)}): the trigger tells records apart by their id`,
		);
	}
	if ((typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id.trim() !== '')) return String(id);
	throw new NodeOperationError(
		client.node,
		`ID Field: a record of ${path} has no "${idField}" (its fields are ${Object.keys(record).join(', ')}); set ID Field to the field holding each record's own ID or number`,
		{ failure: { cause: 'configuration-invalid' } },
	);
}

const isNotFound = (error: unknown) => error instanceof NodeApiError && String(error.httpCode) === '404';

/** GET {path} with every page: the records as the list shows them now. */
export async function listAll(client: ErpClient, watched: Watched): Promise<Records> {
	const { resource, path, noun, idField } = watched;
	const records: Records = new Map();
	const action = resource === 'list' ? `list the records of ${path}` : `list the ${noun}s`;
	try {
		for await (const page of paginate(client, { path, itemIndex: 0, doing: { action, noun } })) {
			const onPage = new Set<string>();
			for (const record of page) {
				const id = idOf(client, record, watched);
				// One page is one answer: two records on it with one key mean the field does not tell them apart.
				if (onPage.has(id)) {
					throw new NodeOperationError(
						client.node,
						`ID Field: two records on one page of ${path} have the ${idField} ${JSON.stringify(record[idField])}; set ID Field to a field no two records share, e.g. id`,
						{ failure: { cause: 'configuration-invalid' } },
					);
				}
				onPage.add(id);
				records.set(id, record);
			}
		}
	} catch (error) {
		const shown = asNodeError(client.node, error);
		if (resource === 'list' && isNotFound(shown)) {
			shown.message = `List Path: ${shown.message.charAt(0).toLowerCase()}${shown.message.slice(1)}`;
			shown.description = `Check List Path: the ERP lists nothing at ${path}. ${shown.description ?? ''}`.trim();
		}
		throw shown;
	}
	return records;
}

/**
 * The first look at a list: scanned again until a scan finds no ID the earlier ones missed (at most three
 * scans). A record deleted while a page is read shifts the later ones back by one, so one scan can miss a
 * record; a record missed by the baseline would be reported as new later.
 */
export async function listForBaseline(client: ErpClient, watched: Watched): Promise<Records> {
	const union = await listAll(client, watched);
	for (let scan = 2; scan <= 3; scan++) {
		const again = await listAll(client, watched);
		let added = 0;
		for (const [id, record] of again) {
			if (!union.has(id)) added++;
			union.set(id, record);
		}
		if (added === 0) break;
	}
	return union;
}

/**
 * GET {path}/{id} for remembered records a scan did not show: a record shifted between pages while the scan ran
 * is found (and compared as usual); a 404 proves the record is gone, and only then is it forgotten. Once the
 * budget is nearly used no new lookup starts: the records not looked up are neither found nor gone.
 */
export async function lookUp(client: ErpClient, { path, noun }: Watched, ids: string[], budget?: PollBudget): Promise<{ found: Records; gone: string[] }> {
	const found: Records = new Map();
	const gone: string[] = [];
	await forEachConcurrently(ids.length, client.options.concurrency, async (i) => {
		if (budget?.nearlyUsed()) return;
		const id = ids[i];
		try {
			const response = await client.request({ method: 'GET', path: `${path}/${id}`, expect: 'record', doing: { action: `read ${noun} ${id}`, noun, id } });
			found.set(id, response.data as IDataObject);
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(client.node, error);
			gone.push(id);
		}
	});
	return { found, gone };
}

/** GET /products/{id} for each chosen product; one that does not exist is the user's to fix. */
export async function readChosen(client: ErpClient, ids: number[]): Promise<Records> {
	const { found, gone } = await lookUp(client, { resource: 'product', path: '/products', noun: 'product', idField: 'id' }, ids.map(String));
	if (gone.length > 0) {
		throw new NodeOperationError(
			client.node,
			`Product IDs: no product with ID ${gone.sort((a, b) => Number(a) - Number(b)).join(', ')} in the ERP; remove it from Product IDs or check the ID`,
			{ failure: { cause: 'configuration-invalid' } },
		);
	}
	return new Map(ids.map((id) => [String(id), found.get(String(id)) as IDataObject]));
}
