import type { FieldSpecs } from '../common/fields';

const employmentTypes = [
	{ name: 'Contractor', value: 'contractor' },
	{ name: 'Full Time', value: 'full_time' },
	{ name: 'Part Time', value: 'part_time' },
];

export const employeeFields: FieldSpecs = {
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
		property: {
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@example.com',
			default: '',
			description: 'Work email; unique among employees',
		},
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
	employmentType: {
		apiName: 'employment_type',
		kind: 'text',
		property: { displayName: 'Employment Type', name: 'employmentType', type: 'options', options: employmentTypes, default: 'full_time' },
	},
	hireDate: {
		apiName: 'hire_date',
		kind: 'date',
		property: { displayName: 'Hire Date', name: 'hireDate', type: 'dateTime', default: '', description: 'The ERP uses today when empty' },
	},
	salary: {
		apiName: 'salary',
		kind: 'positiveNumber',
		property: {
			displayName: 'Salary',
			name: 'salary',
			type: 'number',
			typeOptions: { numberPrecision: 2 },
			default: 0,
			description: 'Annual gross salary',
		},
	},
	currency: {
		apiName: 'currency',
		kind: 'currency',
		property: { displayName: 'Currency', name: 'currency', type: 'string', default: '', placeholder: 'EUR' },
	},
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
