import type { FieldSpec, FieldSpecs } from './fields';

/** The fields a contact and an employee share. */
export const personFields: FieldSpecs = {
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
};

/** A 3-letter currency code; the ERP falls back to EUR when it is left empty. */
export const currencyField: FieldSpec = {
	apiName: 'currency',
	kind: 'currency',
	property: {
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		placeholder: 'EUR',
		description: 'Three-letter currency code; the ERP uses EUR when empty',
	},
};
