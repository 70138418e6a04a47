import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isObject } from '../../transport/types';
import type { FieldSpecs } from './fields';
import { buildBody } from './fields';

/** Fields every record has that the ERP assigns: never sent back. */
export const ASSIGNED_FIELDS = ['id', 'created_at', 'updated_at'];

/** The Update Fields the user set, as an API body; an empty update is refused before anything is sent. */
export function readChanges(this: IExecuteFunctions, itemIndex: number, fields: FieldSpecs, noun: string): IDataObject {
	const changes = buildBody.call(this, itemIndex, fields, this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject);
	if (Object.keys(changes).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Update Fields is empty: add at least one field to change', {
			itemIndex,
			description: `Nothing was sent to the ERP. Add a field under Update Fields and give it a value, or remove this node if the ${noun} needs no change.`,
		});
	}
	return changes;
}

/**
 * The body of an update: the record as the ERP holds it now, with the changes on top. The API document does not
 * say whether PUT merges or replaces; sent whole, the record keeps every field the user did not touch either way
 * (at the cost of one GET). Assigned fields are left out; custom_fields are merged key by key.
 */
export function mergeChanges(current: IDataObject, changes: IDataObject, assigned: string[]): IDataObject {
	const body: IDataObject = { ...current, ...changes };
	for (const field of assigned) delete body[field];
	const [now, changed] = [current.custom_fields, changes.custom_fields];
	if (isObject(now) && isObject(changed)) body.custom_fields = { ...now, ...changed };
	return body;
}

