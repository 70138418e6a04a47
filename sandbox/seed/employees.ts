import { addDays, endOfMonth } from '../dates';
import { roundMoney } from '../formats';
import { employeeNumber } from '../numbering';
import type { Store } from '../store';
import type { Employee, PayrollRecord } from '../types';
import { COUNTRIES, DEPARTMENTS } from './names';
import { emailPart, person, phone } from './people';
import type { Random } from './random';
import { daysAgo, officeTime, type Timeline } from './timeline';

const PAYROLL_MONTHS = 24;
const COMPANY_DOMAIN = 'northwind-industries.com';

const monthIndex = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/**
 * Monthly pay runs from the hire month to the last full month, newest first, the latest 24 at most. A first
 * month begun mid-month is prorated; pay rises about 3% a year, so older runs are a little lower.
 */
function payroll(store: Store, rng: Random, employee: Employee, today: string): PayrollRecord[] {
	if (employee.salary === null) return [];
	const salary = employee.salary;
	const lastFullMonth = monthIndex(today) - 1;
	const firstMonth = Math.max(monthIndex(employee.hire_date), lastFullMonth - PAYROLL_MONTHS + 1);
	const deductionRate = 0.28 + rng.next() * 0.14;
	const records: PayrollRecord[] = [];
	for (let month = firstMonth; month <= lastFullMonth; month++) {
		const first = `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`;
		const start = employee.hire_date > first ? employee.hire_date : first;
		const end = endOfMonth(first);
		const worked = (Number(end.slice(8)) - Number(start.slice(8)) + 1) / Number(end.slice(8));
		const yearsBack = Math.floor((lastFullMonth - month) / 12);
		const gross = roundMoney((salary / 12 / 1.03 ** yearsBack) * worked);
		const deductions = roundMoney(gross * deductionRate);
		records.push({
			id: store.nextPayrollId(),
			employee_id: employee.id,
			period: first.slice(0, 7),
			period_start: start,
			period_end: end,
			pay_date: end,
			gross,
			deductions,
			net: roundMoney(gross - deductions),
			currency: employee.currency,
		});
	}
	return records.reverse();
}

/** Staff hired over the last six years (ids in hiring order), each with a payroll history. */
export function seedEmployees(store: Store, t: Timeline, count: number): void {
	const { rng } = t;
	const hires = Array.from({ length: count }, () => daysAgo(t, rng.int(14, 6 * 365))).sort();
	for (const hireDate of hires) {
		const { firstName, lastName } = person(rng);
		const department = rng.pick(DEPARTMENTS);
		const [jobTitle, baseSalary] = rng.pick(department.titles);
		const employmentType = rng.weighted([['full_time', 80], ['part_time', 12], ['contractor', 8]] as const);
		const local = `${emailPart(firstName)}.${emailPart(lastName)}`;
		let email = `${local}@${COMPANY_DOMAIN}`;
		for (let n = 2; store.employeeIdForEmail(email) !== undefined; n++) email = `${local}${n}@${COMPANY_DOMAIN}`;
		const salaryFactor = employmentType === 'part_time' ? 0.5 + rng.next() * 0.3 : 0.9 + rng.next() * 0.25;
		const createdAt = officeTime(t, addDays(hireDate, -rng.int(7, 30)));
		const id = store.employees.nextId();
		const employee: Employee = {
			id,
			employee_number: employeeNumber(id),
			first_name: firstName,
			last_name: lastName,
			email,
			phone: rng.chance(0.7) ? phone(rng, COUNTRIES[0]) : null,
			job_title: jobTitle,
			department: department.name,
			employment_type: employmentType,
			hire_date: hireDate,
			salary: employmentType === 'contractor' ? null : Math.round((baseSalary * salaryFactor) / 100) * 100,
			currency: 'EUR',
			status: 'active',
			custom_fields: {},
			created_at: createdAt,
			updated_at: createdAt,
		};
		store.addEmployee(employee, payroll(store, rng, employee, t.today));
	}
}
