import { nowIso, todayUtc } from '../dates';
import { notFound } from '../errors';
import { employeeNumber } from '../numbering';
import { containsText, listSorts, listTable, pageOf, type Filter } from '../listing';
import { stringParam } from '../query';
import type { Router } from '../router';
import { ruleSchemas } from '../rules';
import { EMPLOYMENT_TYPES, type CustomFields, type Employee } from '../types';
import { FieldErrors, readFields } from '../validate';
import type { ApiContext, ApiHandler } from './context';

const schemaFor = ruleSchemas('employee', {
	first_name: { type: 'string', required: true, max: 100 },
	last_name: { type: 'string', required: true, max: 100 },
	email: { type: 'string', required: true, format: 'email' },
	phone: { type: 'string', nullable: true, format: 'phone' },
	job_title: { type: 'string', nullable: true, max: 200 },
	department: { type: 'string', nullable: true, max: 200 },
	employment_type: { type: 'string', oneOf: EMPLOYMENT_TYPES },
	hire_date: { type: 'string', format: 'date' },
	salary: { type: 'number', nullable: true, above: 0, money: true },
	currency: { type: 'string', format: 'currency' },
	custom_fields: { type: 'custom_fields' },
});

const sorts = listSorts<Employee>({ hire_date: (e) => e.hire_date });

function filters(query: URLSearchParams): Array<Filter<Employee>> {
	const tests: Array<Filter<Employee>> = [];
	const search = stringParam(query, 'search')?.toLowerCase();
	if (search) tests.push((e) => containsText(search, e.first_name, e.last_name, e.email));
	// Exact, ignoring case like the uniqueness rule: the lookup behind Create or Update.
	const email = stringParam(query, 'email')?.toLowerCase();
	if (email !== undefined) tests.push((e) => e.email.toLowerCase() === email);
	for (const field of ['department', 'status', 'employment_type'] as const) {
		const value = stringParam(query, field);
		if (value !== undefined) tests.push((e) => e[field] === value);
	}
	return tests;
}

function findEmployee(ctx: ApiContext): Employee {
	const employee = ctx.state.store.employees.get(ctx.id);
	if (!employee) throw notFound(`Employee ${ctx.id} not found`);
	return employee;
}

const create: ApiHandler = ({ state, body, variant }) => {
	const { store } = state;
	const errors = new FieldErrors();
	const v = readFields(body, schemaFor(variant.rules), 'create', errors);
	const taken = typeof v.email === 'string' ? store.employeeIdForEmail(v.email) : undefined;
	if (taken !== undefined) errors.add('email', `is already taken by employee ${taken}`);
	errors.throwIfAny();
	const now = nowIso();
	const id = store.employees.nextId();
	const employee: Employee = {
		id,
		employee_number: employeeNumber(id),
		first_name: v.first_name as string,
		last_name: v.last_name as string,
		email: v.email as string,
		phone: (v.phone as string | undefined) ?? null,
		job_title: (v.job_title as string | undefined) ?? null,
		department: (v.department as string | undefined) ?? null,
		employment_type: (v.employment_type as string | undefined) ?? 'full_time',
		hire_date: (v.hire_date as string | undefined) ?? todayUtc(),
		salary: (v.salary as number | undefined) ?? null,
		currency: (v.currency as string | undefined) ?? 'EUR',
		status: 'active',
		custom_fields: (v.custom_fields as CustomFields | undefined) ?? {},
		created_at: now,
		updated_at: now,
	};
	store.addEmployee(employee);
	state.webhooks.emit('employee.hired', employee);
	return { status: 201, data: employee, created: `/employees/${employee.id}` };
};

export function employeeRoutes(router: Router<ApiHandler>): void {
	router
		.on('GET', '/employees', (ctx) => listTable(ctx.state.store.employees, ctx, filters, sorts))
		.on('POST', '/employees', create)
		.on('GET', '/employees/:id', (ctx) => ({ data: findEmployee(ctx) }))
		.on('GET', '/employees/:id/payroll', (ctx) =>
			pageOf(ctx.state.store.payroll.get(findEmployee(ctx).id) ?? [], ctx),
		);
}
