import { useErpHarness, byId, createWith, jsonOf } from './setup';

const h = useErpHarness();

describe('Employee', () => {
	it('adds an employee (and the ERP emits employee.hired)', async () => {
		const result = await h.run(
			createWith('employee', {
				first_name: 'Linus',
				last_name: 'Torvalds',
				email: 'linus@example.com',
				department: 'Engineering',
				employment_type: 'part_time',
				salary: 90000,
				hire_date: '2026-11-01T00:00:00',
			}),
		);
		const [employee] = await h.sandbox.admin.records('employees');
		expect(employee).toMatchObject({ first_name: 'Linus', department: 'Engineering', employment_type: 'part_time', salary: 90000, hire_date: '2026-11-01' });
		expect(jsonOf(result)).toEqual([employee]);
		expect((await h.sandbox.admin.events()).map((e) => e.event)).toContain('employee.hired');
	});

	it('leaves required fields and allowed values to the ERP: its 422 names them', async () => {
		const result = await h.run(createWith('employee', { first_name: 'A', last_name: '={{ $json.last }}', email: 'a@example.com', employment_type: 'intern' }), {
			input: [{ last: '' }],
		});
		expect(result.error?.message).toMatch(/^The ERP refused to create the employee \(422\): /);
		expect(result.error?.message).toMatch(/last_name: is required/);
		expect(result.error?.message).toMatch(/employment_type: /);
		expect((await h.requests()).map((r) => r.body)).toEqual([{ first_name: 'A', email: 'a@example.com', employment_type: 'intern' }]);
	});

	it('refuses a salary that is no number at all, naming the field, before sending', async () => {
		const result = await h.run(createWith('employee', { first_name: 'A', last_name: 'B', email: 'a@example.com', salary: '={{ "lots" }}' }));
		expect(result.error?.message).toBe("Invalid input for 'salary' [item 0]");
		expect(await h.requests()).toEqual([]);
	});

	it('gets, lists and returns the payroll history one item per pay run', async () => {
		await h.sandbox.admin.seed({ employees: 8 });
		const employees = await h.sandbox.admin.records('employees');
		const payroll = await h.sandbox.admin.records('payroll');
		const withPay = employees.find((e) => payroll.some((p) => p.employee_id === e.id));
		expect(withPay).toBeDefined();

		const one = await h.run({ resource: 'employee', operation: 'get', employeeId: byId(withPay?.id) });
		expect(jsonOf(one)).toEqual([withPay]);

		const list = await h.run({ resource: 'employee', operation: 'getAll', returnAll: false, limit: 3 });
		expect(jsonOf(list)).toEqual(employees.slice(0, 3));

		const history = await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: true });
		const expectedIds = payroll.filter((p) => p.employee_id === withPay?.id).map((p) => p.id).sort();
		expect(jsonOf(history).map((p) => p.id).sort()).toEqual(expectedIds);

		const latest = await h.run({ resource: 'employee', operation: 'getPayroll', employeeId: byId(withPay?.id), returnAll: false, limit: 2 });
		expect(jsonOf(latest)).toHaveLength(Math.min(2, expectedIds.length));
	});
});
