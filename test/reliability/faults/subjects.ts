import { fieldsParameter } from '../../../tooling/host/fields';
import { byId } from '../../../tooling/host/workflows';

/** What a batch's input items ask, in kinds of work. */
export type BatchKind = 'create' | 'update' | 'read' | 'delete';

/** A record as the sandbox stores it, compared by its fields. */
export type StoredRecord = { id: number };

/** A field of a record (undefined: no such record). */
export const fieldOf = (record: StoredRecord | undefined, name: string): unknown => (record as Record<string, unknown> | undefined)?.[name];

/**
 * What a fault scenario's items work on, and through which operation of the ERP node: contacts through the node's
 * own operations, or orders (the sandbox's extension, which the API document does not list) through Custom API Call.
 * Each input item carries `key` (a create's natural key), `first`, `id` or `value`; the parameters read them.
 */
export interface Subject {
	records: 'contacts' | 'orders';
	/** The list the records are at, where a create's lookup by its key goes. */
	list: string;
	/** A create's natural key, in its body and in its lookup's query. */
	key: string;
	/** Whether the ERP refuses a second record with the key (422): a create sent again then shows in the log only. */
	uniqueKey: boolean;
	/** The field an update sets. */
	changed: string;
	/** The work in a scenario's title and setup. */
	work: Record<BatchKind, string>;
	parameters(kind: BatchKind, keyed: boolean): Record<string, unknown>;
}

const byIdFromItem = byId('={{ $json.id }}');
const customCall = (method: string, path: string, extra: Record<string, unknown> = {}) => ({ resource: 'customApiCall', operation: 'call', method, path, ...extra });

export const SUBJECTS: Record<'contact' | 'order', Subject> = {
	contact: {
		records: 'contacts',
		list: '/contacts',
		key: 'email',
		uniqueKey: false,
		changed: 'company',
		work: { create: 'create contacts', update: 'update contacts', read: 'read contacts by ID', delete: 'delete contacts' },
		parameters: (kind) => {
			if (kind === 'create') return { resource: 'contact', operation: 'create', columns: fieldsParameter('contact', { first_name: '={{ $json.first }}', email: '={{ $json.key }}' }) };
			if (kind === 'update') return { resource: 'contact', operation: 'update', contactId: byIdFromItem, updateFields: { company: '={{ $json.value }}' } };
			return { resource: 'contact', operation: kind === 'read' ? 'get' : 'delete', contactId: byIdFromItem };
		},
	},
	order: {
		records: 'orders',
		list: '/orders',
		key: 'reference',
		uniqueKey: true,
		changed: 'notes',
		work: {
			create: 'Custom API Call POST /orders',
			update: 'Custom API Call PUT /orders/{id}',
			read: 'Custom API Call GET /orders/{id}',
			delete: 'Custom API Call DELETE /orders/{id}',
		},
		parameters: (kind, keyed) => {
			if (kind === 'create') {
				const body = '={{ { reference: $json.key, customer: $json.first, total: 10 } }}';
				return customCall('POST', '/orders', { body, ...(keyed ? { keyField: 'reference' } : {}) });
			}
			if (kind === 'update') return customCall('PUT', '=/orders/{{ $json.id }}', { body: '={{ { notes: $json.value } }}' });
			return customCall(kind === 'read' ? 'GET' : 'DELETE', '=/orders/{{ $json.id }}');
		},
	},
};
