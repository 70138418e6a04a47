import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import { paginate } from '../../../shared/transport/paginate';
import type { ErpRequest, ErpResponse, Query, UnclearResolution } from '../../../shared/transport/types';
import type { KeyLookup } from '../shared/keyed';
import { findByKey, recoverBySeenIds, settleUnclear } from '../shared/keyed';
import { argumentLabel } from '../shared/tool';
import { isBlank } from '../../../shared/values';

/** Key Field, when the user named one: the field of the Body a POST's record is looked up by, or a PATCH's change seen by. */
export function readKeyField(this: IExecuteFunctions, itemIndex: number): string | undefined {
	const raw = this.getNodeParameter('keyField', itemIndex, '') as unknown;
	const field = typeof raw === 'string' ? raw.trim() : '';
	return field === '' ? undefined : field;
}

function keyValue(this: IExecuteFunctions, body: IDataObject, field: string, itemIndex: number): string {
	const value = body[field];
	if ((typeof value === 'string' || typeof value === 'number') && !isBlank(value)) return String(value);
	const node = this.getNode();
	throw new NodeOperationError(node, `${argumentLabel(node, 'body', 'Body')} has no "${field}" value, which Key Field names: nothing was sent`, {
		itemIndex,
		description: `Give the Body a "${field}" (text or a number) that the record keeps, or clear Key Field.`,
	});
}

const advice = (field: string) => `A lookup by ${field} could not tell whether the ERP wrote it: check in the ERP before running this item again.`;

/**
 * A POST that a Key Field lets the node settle when its answer is lost: the list at Path (with the same Query
 * Parameters) is read for records with the Body's key value before the POST, and again after an unclear failure,
 * where exactly one record it did not see before is the one the POST wrote, none proves nothing was written (so it
 * is sent again), and more cannot tell. Costs one lookup per POST.
 */
export async function keyedPost(
	this: IExecuteFunctions,
	client: ErpClient,
	post: ErpRequest & { body: IDataObject; qs: Query },
	field: string,
): Promise<ErpResponse> {
	const itemIndex = post.itemIndex ?? 0;
	const value = keyValue.call(this, post.body, field, itemIndex);
	const lookup: KeyLookup = {
		noun: 'record',
		key: field,
		pages: (erp, key, index) =>
			paginate(erp, { path: post.path, query: { ...post.qs, [field]: key }, itemIndex: index, doing: { action: `look up ${post.path} by ${field}`, noun: 'record' } }),
	};
	const seen = await findByKey(client, lookup, value, itemIndex);
	const sent = await client.exchange({ ...post, doing: { ...post.doing, unclearAdvice: advice(field) } });
	return await settleUnclear(sent, recoverBySeenIds(client, lookup, value, seen, itemIndex));
}

/**
 * A PATCH that a Key Field lets the node settle when its answer is lost: the record at Path is read, and holding the
 * Body's value of that field it shows the PATCH done; holding another, not done, so it is sent again (not after a
 * timeout: the ERP may still be at it).
 */
export async function keyedPatch(this: IExecuteFunctions, client: ErpClient, patch: ErpRequest & { body: IDataObject }, field: string): Promise<ErpResponse> {
	const value = keyValue.call(this, patch.body, field, patch.itemIndex ?? 0);
	const readBack = async (): Promise<UnclearResolution> => {
		const read = await client.request({ method: 'GET', path: patch.path, itemIndex: patch.itemIndex, expect: 'record', doing: { action: `read ${patch.path}`, noun: 'record' } });
		const record = read.data as IDataObject;
		return String(record[field] ?? '').trim() === value.trim() ? { found: record } : { absent: true };
	};
	return await settleUnclear(await client.exchange({ ...patch, doing: { ...patch.doing, unclearAdvice: advice(field) } }), readBack);
}
