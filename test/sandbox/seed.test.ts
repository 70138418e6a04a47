import { startTestSandbox, type TestSandbox } from '../../tooling/harness/sandbox';
import type { Contact, Employee, Invoice, PayrollRecord, Product, StockRow } from '../../sandbox/types';

let sandbox: TestSandbox;
let contacts: Contact[];
let invoices: Invoice[];
let products: Product[];
let employees: Employee[];
let stock: Array<StockRow & { product_id: number }>;
let payroll: PayrollRecord[];
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
	sandbox = await startTestSandbox({ seed: { contacts: 300, invoices: 400, products: 120, employees: 80, seed: 9 } });
	[contacts, invoices, products, employees, stock, payroll] = await Promise.all([
		sandbox.admin.records('contacts'),
		sandbox.admin.records('invoices'),
		sandbox.admin.records('products'),
		sandbox.admin.records('employees'),
		sandbox.admin.records('stock'),
		sandbox.admin.records('payroll'),
	]);
});
afterAll(() => sandbox.close());

// Checked against the contract's own wording, not the sandbox's validators.
const PHONE = /^\+\d[\d ().-]*\d$/;
const digitCount = (phone: string) => phone.replace(/\D/g, '').length;
const EMAIL = /^[a-z0-9.]+@[a-z0-9-]+(\.[a-z]{2,})+$/;
const cents = (n: number) => Math.round(n * 100);

describe('seeded contacts', () => {
	it('have names, international phones and e-mails, most with a company', () => {
		expect(contacts).toHaveLength(300);
		for (const c of contacts) {
			expect(c.first_name.length).toBeGreaterThan(0);
			if (c.phone !== null) {
				expect(c.phone).toMatch(PHONE);
				expect(digitCount(c.phone)).toBeGreaterThanOrEqual(7);
				expect(digitCount(c.phone)).toBeLessThanOrEqual(15);
			}
			if (c.email !== null) expect(c.email).toMatch(EMAIL);
			expect(c.created_at < today).toBe(true);
			expect(c.updated_at >= c.created_at).toBe(true);
		}
		expect(contacts.filter((c) => c.company).length).toBeGreaterThan(200);
		expect(new Set(contacts.map((c) => c.last_name)).size).toBeGreaterThan(30);
	});

	it('pass the API validation when sent back', async () => {
		for (const c of contacts.slice(0, 40)) {
			const response = await sandbox.api.post('/contacts', { first_name: c.first_name, last_name: c.last_name, email: c.email, phone: c.phone, company: c.company });
			expect(response.status).toBe(201);
		}
	});
});

describe('seeded invoices', () => {
	it('exist in every state, for existing contacts, with dates that agree with the state', () => {
		const contactIds = new Set(contacts.map((c) => c.id));
		expect(new Set(invoices.map((i) => i.status))).toEqual(new Set(['draft', 'sent', 'overdue', 'paid']));
		for (const i of invoices) {
			expect(contactIds.has(i.contact_id)).toBe(true);
			expect(i.number).toBe(`INV-${String(i.id).padStart(6, '0')}`);
			expect(i.due_date >= i.issue_date).toBe(true);
			if (i.status === 'sent') expect(i.due_date >= today).toBe(true);
			if (i.status === 'overdue') expect(i.due_date < today).toBe(true);
			if (i.status === 'draft') expect(i.sent_at).toBeNull();
			if (i.status === 'paid') {
				expect(i.amount_due).toBe(0);
				expect(i.paid_at).not.toBeNull();
			} else {
				expect(i.amount_due).toBe(i.total);
				expect(i.paid_at).toBeNull();
			}
		}
	});

	it('have totals that add up from their lines', () => {
		for (const i of invoices) {
			const net = i.lines.reduce((sum, l) => sum + l.quantity * cents(l.unit_price), 0);
			const tax = i.lines.reduce((sum, l) => sum + (l.quantity * cents(l.unit_price) * l.tax_rate) / 100, 0);
			expect(cents(i.subtotal)).toBe(Math.round(net));
			expect(Math.abs(cents(i.tax_total) - tax)).toBeLessThanOrEqual(0.5 + 1e-6);
			expect(cents(i.total)).toBe(cents(i.subtotal) + cents(i.tax_total));
		}
	});

	it('have ids in creation order', () => {
		const created = invoices.map((i) => i.created_at);
		expect(created).toEqual([...created].sort());
	});
});

describe('seeded products', () => {
	it('have unique SKUs and stock in the three warehouses that adds up', () => {
		expect(new Set(products.map((p) => p.sku)).size).toBe(products.length);
		for (const p of products) {
			const rows = stock.filter((r) => r.product_id === p.id);
			expect(rows.map((r) => r.warehouse_code)).toEqual(['MAIN', 'NORTH', 'SOUTH']);
			expect(p.stock_total).toBe(rows.reduce((sum, r) => sum + r.quantity, 0));
			for (const r of rows) expect(r.available).toBe(r.quantity - r.reserved);
		}
		const low = products.filter((p) => p.stock_total < p.low_stock_threshold);
		expect(low.length).toBeGreaterThan(0);
		expect(low.length).toBeLessThan(products.length / 2);
	});
});

describe('seeded employees', () => {
	it('have unique e-mails and employee numbers from their id', () => {
		expect(new Set(employees.map((e) => e.email.toLowerCase())).size).toBe(employees.length);
		for (const e of employees) {
			expect(e.employee_number).toBe(`EMP-${String(e.id).padStart(4, '0')}`);
			expect(e.email).toMatch(EMAIL);
			expect(e.status).toBe('active');
			expect(e.hire_date < today).toBe(true);
		}
	});

	it('have monthly payroll since the hire date, at most 24 runs, with net = gross - deductions', () => {
		const lastFullMonth = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 2, 1)).toISOString().slice(0, 7);
		let withHistory = 0;
		for (const e of employees) {
			const runs = payroll.filter((r) => r.employee_id === e.id);
			if (e.salary === null) {
				expect(runs).toEqual([]);
				continue;
			}
			if (e.hire_date.slice(0, 7) <= lastFullMonth) {
				expect(runs[0].period).toBe(lastFullMonth);
				withHistory++;
			}
			expect(runs.length).toBeLessThanOrEqual(24);
			for (let k = 0; k < runs.length; k++) {
				const run = runs[k];
				expect(cents(run.net)).toBe(cents(run.gross) - cents(run.deductions));
				expect(run.period_start >= e.hire_date).toBe(true);
				expect(run.currency).toBe(e.currency);
				if (k > 0) {
					const next = new Date(`${run.period}-01T00:00:00Z`);
					next.setUTCMonth(next.getUTCMonth() + 1);
					expect(runs[k - 1].period).toBe(next.toISOString().slice(0, 7));
				}
			}
		}
		expect(withHistory).toBeGreaterThan(employees.length / 2);
		expect(payroll.some((r) => payroll.filter((x) => x.employee_id === r.employee_id).length === 24)).toBe(true);
	});
});
