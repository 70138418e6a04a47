import type { FieldSpecs } from '../common/fields';

export const contactFields: FieldSpecs = {
	firstName: {
		apiName: 'first_name',
		kind: 'text',
		property: { displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
	},
	lastName: {
		apiName: 'last_name',
		kind: 'text',
		property: { displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
	},
	email: {
		apiName: 'email',
		kind: 'email',
		property: { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@example.com', default: '' },
	},
	phone: {
		apiName: 'phone',
		kind: 'phone',
		property: {
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			placeholder: '+49 30 1234567',
			default: '',
			description: 'In international format: a + and the country code first',
		},
	},
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
	email: {
		apiName: 'email',
		kind: 'email',
		property: { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@example.com', default: '' },
	},
	company: {
		apiName: 'company',
		kind: 'text',
		property: { displayName: 'Company', name: 'company', type: 'string', default: '' },
	},
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
