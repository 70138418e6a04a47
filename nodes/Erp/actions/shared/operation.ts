import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { isObject } from '../../transport/types';

/** An operation's parameters, shown only for that resource and operation. */
export function forOperation(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties);
}

/** The record an answer carries, or `summary` when it carries none (a 204, or a bare success). */
export function recordOr(data: unknown, summary: IDataObject): IDataObject {
	return isObject(data) ? data : summary;
}
