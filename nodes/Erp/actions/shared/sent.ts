import type { IDataObject } from 'n8n-workflow';

/**
 * A write's output item: the fields the node sent, with the ERP's answer over them (the answer wins a clash). The
 * ERP may answer with part of the record (a contact's create gives back only id, first_name and created_at), and
 * the next node should still find what was sent without another request. The answer's fields come first, so the
 * id leads the item; spreading the answer twice keeps that order while its values win.
 */
export const sentUnderAnswer = (sent: IDataObject, answer: IDataObject): IDataObject => ({ ...answer, ...sent, ...answer });
