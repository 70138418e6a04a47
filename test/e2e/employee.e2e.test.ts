import { fieldsParameter } from '../../tooling/host/fields';
import { calls, runErp } from '../../tooling/host/runErp';
import { connect, type Session } from '../../tooling/host/session';
import { byId } from '../../tooling/host/workflows';

describe('ERP node › Employee, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

	test('Create: a new hire in the ERP, active, with an employee number', async () => {
		const email = `mara.keller.${Date.now()}@northwind-industries.com`;
		const hire = { first_name: 'Mara', last_name: 'Keller', email, department: 'Finance', job_title: 'Controller', salary: 64000, employment_type: 'part_time' };
		const run = await runErp(session, { resource: 'employee', operation: 'create', columns: fieldsParameter('employee', hire) });

		expect(calls(run)).toEqual(['POST /employees 201']);
		expect(run.requests[0].body).toEqual(hire);
		const stored = (await session.sandbox.records('employees')).filter((e) => e.email === email);
		expect(stored).toEqual([
			expect.objectContaining({ status: 'active', department: 'Finance', salary: 64000, employee_number: expect.stringMatching(/^EMP-\d{4}$/) }),
		]);
		expect(run.items).toEqual(stored);
	});

	test('Get: outputs the employee exactly as the ERP holds it', async () => {
		const employee = (await session.sandbox.records('employees'))[2];
		const run = await runErp(session, { resource: 'employee', operation: 'get', employeeId: byId(employee.id) });

		expect(calls(run)).toEqual([`GET /employees/${employee.id} 200`]);
		expect(run.items).toEqual([employee]);
	});

	test('Get Many: a department filter returns exactly the ERP employees of that department', async () => {
		const all = await session.sandbox.records('employees');
		const { department } = all[0];
		const run = await runErp(session, {
			resource: 'employee',
			operation: 'getAll',
			returnAll: true,
			filters: { department },
		});

		expect(run.requests.map((r) => [r.path, r.query.department, r.status])).toEqual([['/employees', department, 200]]);
		expect(run.items).toEqual(all.filter((e) => e.department === department));
	});

	test('Get Payroll: the latest pay runs, newest first, as the ERP booked them', async () => {
		const [employee] = await session.sandbox.records('employees');
		const run = await runErp(session, {
			resource: 'employee',
			operation: 'getPayroll',
			employeeId: byId(employee.id),
			returnAll: false,
			limit: 3,
		});
		const payroll = (await session.sandbox.records('payroll'))
			.filter((row) => row.employee_id === employee.id)
			.sort((a, b) => b.period.localeCompare(a.period));

		expect(run.requests.map((r) => [r.path, r.query.per_page, r.status])).toEqual([[`/employees/${employee.id}/payroll`, '3', 200]]);
		expect(payroll.length).toBeGreaterThan(3);
		expect(run.items).toEqual(payroll.slice(0, 3));
	});
});
