import { personFields } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';

export const contactFields: FieldSpecs = {
	...personFields,
	company: {
		apiName: 'company',
		kind: 'text',
		property: { displayName: 'Company', name: 'company', type: 'string', default: '' },
	},
	notes: {
		apiName: 'notes',
		kind: 'text',
		property: { displayName: 'Notes', name: 'notes', type: 'string', typeOptions: { rows: 3 }, default: '' },
	},
};

export const contactFilters: FieldSpecs = {
	search: {
		apiName: 'search',
		kind: 'text',
		property: {
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Text found in the first name, last name, email or company',
		},
	},
	email: personFields.email,
	company: contactFields.company,
	createdAfter: {
		apiName: 'created_after',
		kind: 'dateTime',
		property: { displayName: 'Created After', name: 'createdAfter', type: 'dateTime', default: '' },
	},
	createdBefore: {
		apiName: 'created_before',
		kind: 'dateTime',
		property: { displayName: 'Created Before', name: 'createdBefore', type: 'dateTime', default: '' },
	},
};
