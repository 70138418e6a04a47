import { currencyField, personFields } from '../common.descriptions';
import type { FieldSpecs } from '../shared/fields';

export const employeeFields: FieldSpecs = {
	...personFields,
	lastName: { ...personFields.lastName, usuallyRequired: true },
	email: {
		...personFields.email,
		usuallyRequired: true,
		property: { ...personFields.email.property, description: 'Work email; unique among employees' },
	},
	jobTitle: {
		apiName: 'job_title',
		kind: 'text',
		property: { displayName: 'Job Title', name: 'jobTitle', type: 'string', default: '' },
	},
	department: {
		apiName: 'department',
		kind: 'text',
		property: { displayName: 'Department', name: 'department', type: 'string', default: '' },
	},
	// The ERP's own list of types may be longer: an expression can send any other value.
	employmentType: {
		apiName: 'employment_type',
		kind: 'text',
		property: {
			displayName: 'Employment Type',
			name: 'employmentType',
			type: 'options',
			options: [
				{ name: 'Contractor', value: 'contractor' },
				{ name: 'Full Time', value: 'full_time' },
				{ name: 'Part Time', value: 'part_time' },
			],
			default: 'full_time',
		},
	},
	hireDate: {
		apiName: 'hire_date',
		kind: 'date',
		property: { displayName: 'Hire Date', name: 'hireDate', type: 'dateTime', default: '', description: 'The ERP uses today when empty' },
	},
	salary: {
		apiName: 'salary',
		kind: 'number',
		property: { displayName: 'Salary', name: 'salary', type: 'number', default: 50000, description: 'Annual gross salary' },
	},
	currency: currencyField,
};

export const employeeFilters: FieldSpecs = {
	search: {
		apiName: 'search',
		kind: 'text',
		property: { displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Text found in the name or email' },
	},
	department: employeeFields.department,
	status: {
		apiName: 'status',
		kind: 'text',
		property: {
			displayName: 'Status',
			name: 'status',
			type: 'options',
			default: 'active',
			options: [
				{ name: 'Active', value: 'active' },
				{ name: 'Terminated', value: 'terminated' },
			],
		},
	},
	employmentType: employeeFields.employmentType,
};
