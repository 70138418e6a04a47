import type { FieldSpec, FieldSpecs } from './fields';

/** The fields a contact and an employee share. */
export const personFields: FieldSpecs = {
	firstName: {
		apiName: 'first_name',
		kind: 'text',
		usuallyRequired: true,
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

/** A currency code; which codes the ERP accepts is its own choice. */
export const currencyField: FieldSpec = {
	apiName: 'currency',
	kind: 'text',
	property: {
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: '',
		placeholder: 'EUR',
		description: 'Currency code such as EUR; the ERP uses its default when empty',
	},
};
