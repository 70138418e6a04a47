import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import type { Employee } from '../../sandbox/types';
import { createEmployee, ISO_MS, todayUtc } from './fixtures';

let sandbox: TestSandbox;

beforeAll(async () => {
	sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.admin.reset());

describe('POST /employees', () => {
	it('creates an active employee with the documented defaults', async () => {
		const response = await sandbox.api.post('/employees', { first_name: 'Lukas', last_name: 'Weber', email: 'lukas@example.com' });
		expect(response.status).toBe(201);
		expect(response.data).toEqual({
			success: true,
			data: {
				id: 1,
				employee_number: 'EMP-0001',
				first_name: 'Lukas',
				last_name: 'Weber',
				email: 'lukas@example.com',
				phone: null,
				job_title: null,
				department: null,
				employment_type: 'full_time',
				hire_date: todayUtc(),
				salary: null,
				currency: 'EUR',
				status: 'active',
				custom_fields: {},
				created_at: expect.stringMatching(ISO_MS),
				updated_at: expect.stringMatching(ISO_MS),
			},
		});
		expect((await sandbox.api.get('/employees/1')).data.data).toEqual(response.data.data);
	});

	it('keeps every given field', async () => {
		const employee = await createEmployee(sandbox.api, {
			phone: '+44 20 7946 0123',
			job_title: 'Accountant',
			department: 'Finance',
			employment_type: 'part_time',
			hire_date: '2026-03-01',
			salary: 30000.5,
			currency: 'GBP',
		});
		expect(employee).toMatchObject({ phone: '+44 20 7946 0123', job_title: 'Accountant', department: 'Finance', employment_type: 'part_time', hire_date: '2026-03-01', salary: 30000.5, currency: 'GBP' });
	});

	it.each([
		['every required field missing', {}, { first_name: ['is required'], last_name: ['is required'], email: ['is required'] }],
		['a bad e-mail', { first_name: 'A', last_name: 'B', email: 'a.b' }, { email: [expect.any(String)] }],
		['an unknown employment type', { first_name: 'A', last_name: 'B', email: 'a@b.de', employment_type: 'intern' }, { employment_type: [expect.stringContaining('full_time')] }],
		['a salary of 0', { first_name: 'A', last_name: 'B', email: 'a@b.de', salary: 0 }, { salary: ['must be greater than 0'] }],
		['a malformed hire date', { first_name: 'A', last_name: 'B', email: 'a@b.de', hire_date: '01/03/2026' }, { hire_date: [expect.any(String)] }],
		['a local phone number', { first_name: 'A', last_name: 'B', email: 'a@b.de', phone: '0151 2345678' }, { phone: [expect.any(String)] }],
	])('answers 422 for %s', async (_name, body, fields) => {
		const response = await sandbox.api.post('/employees', body);
		expect(response.status).toBe(422);
		expect(response.data.error).toEqual({ code: 'validation_failed', message: expect.any(String), fields });
	});

	it('answers 422 for an e-mail already used by an employee, in any letter case', async () => {
		const first = await createEmployee(sandbox.api, { email: 'lukas.weber@example.com' });
		const response = await sandbox.api.post('/employees', { first_name: 'L', last_name: 'W', email: 'Lukas.Weber@Example.com' });
		expect(response.status).toBe(422);
		expect(response.data.error.fields).toEqual({ email: [`is already taken by employee ${first.id}`] });
	});

	it('has no update or delete endpoint', async () => {
		const employee = await createEmployee(sandbox.api);
		expect((await sandbox.api.put(`/employees/${employee.id}`, { job_title: 'x' })).status).toBe(404);
		expect((await sandbox.api.delete(`/employees/${employee.id}`)).status).toBe(404);
	});
});

describe('GET /employees/{id}/payroll', () => {
	it('is an empty list for a new hire', async () => {
		const employee = await createEmployee(sandbox.api, { salary: 50000 });
		const response = await sandbox.api.get(`/employees/${employee.id}/payroll`);
		expect(response.data).toEqual({ success: true, data: [], meta: { page: 1, per_page: 25, total: 0 } });
	});

	it('answers 404 for an unknown employee', async () => {
		expect((await sandbox.api.get('/employees/5')).status).toBe(404);
		expect((await sandbox.api.get('/employees/5/payroll')).status).toBe(404);
	});

	it('lists seeded monthly pay runs, newest first, in the documented shape', async () => {
		await sandbox.admin.seed({ employees: 20, seed: 4 });
		const employees = await sandbox.admin.records('employees');
		const paid = employees.find((e) => e.salary !== null && e.hire_date < '2024-01-01') as Employee;
		const response = await sandbox.api.get(`/employees/${paid.id}/payroll?per_page=100`);
		const runs = response.data.data;
		expect(runs.length).toBeGreaterThan(0);
		for (const run of runs) {
			expect(run).toEqual({
				id: expect.any(Number),
				employee_id: paid.id,
				period: expect.stringMatching(/^\d{4}-\d{2}$/),
				period_start: expect.stringMatching(/^\d{4}-\d{2}-01$/),
				period_end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
				pay_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
				gross: expect.any(Number),
				deductions: expect.any(Number),
				net: expect.any(Number),
				currency: paid.currency,
			});
			expect(run.period_start.startsWith(run.period)).toBe(true);
			expect(run.period_end.startsWith(run.period)).toBe(true);
		}
		const periods = runs.map((r: { period: string }) => r.period);
		expect(periods).toEqual([...periods].sort().reverse());
	});
});

describe('GET /employees filters and sort', () => {
	async function staff(): Promise<Employee[]> {
		return [
			await createEmployee(sandbox.api, { first_name: 'Lukas', last_name: 'Weber', email: 'lukas@acme.com', department: 'Finance', hire_date: '2024-05-01' }),
			await createEmployee(sandbox.api, { first_name: 'Mia', last_name: 'Keller', email: 'mia@acme.com', department: 'Sales', employment_type: 'contractor', hire_date: '2022-01-10' }),
			await createEmployee(sandbox.api, { first_name: 'Noah', last_name: 'Weberling', email: 'noah@acme.com', department: 'Finance', hire_date: '2025-09-15' }),
		];
	}
	const ids = async (query: string) => (await sandbox.api.get(`/employees?${query}`)).data.data.map((e: Employee) => e.id);

	it('search by name or e-mail; department, status and employment_type exact', async () => {
		const [lukas, mia, noah] = await staff();
		expect(await ids('search=weber')).toEqual([lukas.id, noah.id]);
		expect(await ids('search=MIA@')).toEqual([mia.id]);
		expect(await ids('department=Finance')).toEqual([lukas.id, noah.id]);
		expect(await ids('department=finance')).toEqual([]);
		expect(await ids('employment_type=contractor')).toEqual([mia.id]);
		expect(await ids('status=active')).toEqual([lukas.id, mia.id, noah.id]);
		expect(await ids('status=terminated')).toEqual([]);
	});

	it('email: the whole address, in any letter case (the uniqueness rule), never a part of it', async () => {
		const [lukas, mia] = await staff();
		expect(await ids('email=lukas@acme.com')).toEqual([lukas.id]);
		expect(await ids('email=MIA@Acme.COM')).toEqual([mia.id]);
		expect(await ids('email=acme.com')).toEqual([]);
		expect(await ids('email=lukas@acme.co')).toEqual([]);
		expect(await ids('email=nobody@acme.com&search=weber')).toEqual([]);
	});

	it('sorts by hire_date', async () => {
		const [lukas, mia, noah] = await staff();
		expect(await ids('sort=hire_date')).toEqual([mia.id, lukas.id, noah.id]);
		expect(await ids('sort=-hire_date')).toEqual([noah.id, lukas.id, mia.id]);
	});
});
