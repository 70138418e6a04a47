import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ErpClient } from '../../transport/client';
import type { ErpRequest } from '../../transport/types';

/** An operation's parameters, shown only for that resource and operation. */
export function forOperation(resource: string, operation: string, properties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties);
}

/** Sends a request whose answer is one record, and returns that record. */
export async function requestRecord(client: ErpClient, request: ErpRequest): Promise<IDataObject> {
	return (await client.request({ ...request, expect: 'record' })).data as IDataObject;
}

/** The record an answer carries, or `summary` when it carries none (a 204, or a bare success). */
export function recordOr(data: unknown, summary: IDataObject): IDataObject {
	return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as IDataObject) : summary;
}
