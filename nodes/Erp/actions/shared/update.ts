import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErpClient } from '../../../shared/transport/client';
import type { ErpRequest } from '../../../shared/transport/types';
import { isObject } from '../../../shared/transport/types';
import type { FieldSpecs } from './fields';
import { buildBody } from './fields';
import { isToolNode } from './tool';
import { writtenItem } from './version';

/** Fields every record has that the ERP assigns: never sent back. */
export const ASSIGNED_FIELDS = ['id', 'created_at', 'updated_at'];

/** The Update Fields the user set, as an API body; an empty update is refused before anything is sent. */
export function readChanges(this: IExecuteFunctions, itemIndex: number, fields: FieldSpecs, noun: string): IDataObject {
	const changes = buildBody.call(this, itemIndex, fields, this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject, 'updateFields');
	if (Object.keys(changes).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Update Fields is empty: add at least one field to change', {
			itemIndex,
			description: isToolNode(this.getNode())
				? `Nothing was sent to the ERP. Give a value to at least one of the ${noun}'s fields to change.`
				: `Nothing was sent to the ERP. Add a field under Update Fields and give it a value, or remove this node if the ${noun} needs no change.`,
		});
	}
	return changes;
}

/**
 * An update: `read` (GET) the record as the ERP holds it now, then `write` (PUT) it whole with the changes on top.
 * The API document does not say whether PUT merges or replaces: sent whole, the record keeps every field the user
 * did not touch either way (at the cost of one GET). `notSent` fields are left out; custom_fields are merged key by key.
 * The output is the write's item (version.ts).
 */
export async function putWhole(
	client: ErpClient,
	requests: { read: ErpRequest; write: ErpRequest },
	changes: IDataObject,
	notSent: string[],
): Promise<IDataObject> {
	const current = (await client.request({ ...requests.read, expect: 'record' })).data as IDataObject;
	const body: IDataObject = { ...current, ...changes };
	for (const field of notSent) delete body[field];
	if (isObject(current.custom_fields) && isObject(changes.custom_fields)) body.custom_fields = { ...current.custom_fields, ...changes.custom_fields };
	const { data } = await client.request({ ...requests.write, body });
	// The document shows no answer to an update: without the record, what was sent is what the ERP now holds.
	return writtenItem(client.node, body, isObject(data) ? data : { id: requests.write.doing.id, ...body });
}
