import type { IDataObject, INode } from 'n8n-workflow';

import { isObject } from '../../../shared/transport/types';
import { isToolNode } from './tool';

/** Whether the node outputs what version 1 (0.1.0) output, the one place that decides: the ERP Tool (new since 0.1.0)
 * behaves as 1.1 whatever its version. */
export const outputsAsVersion1 = (node: INode): boolean => node.typeVersion < 1.1 && !isToolNode(node);

/**
 * A write's output item. From 1.1 on: the fields the node sent, with the ERP's answer over them (the answer wins a
 * clash). The ERP may answer with part of the record (a contact's create gives back only id, first_name and
 * created_at), and the next node should still find what was sent without another request. The answer's fields come
 * first, so the id leads the item; spreading the answer twice keeps that order while its values win.
 */
export function writtenItem(node: INode, sent: IDataObject, answer: IDataObject): IDataObject {
	return outputsAsVersion1(node) ? answer : { ...answer, ...sent, ...answer };
}

/**
 * Delete's output item. From 1.1 on: n8n's confirmation of a delete, whatever the ERP answers (the document shows
 * no answer: a 204, a confirmation, the removed contact). Version 1: the ERP's answer, or a summary without one.
 */
export function deletedItem(node: INode, id: number, answer: unknown): IDataObject {
	if (!outputsAsVersion1(node)) return { deleted: true, id };
	return isObject(answer) ? answer : { id, deleted: true };
}
