import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import axios from 'axios';

import { parseArgs } from '../../sandbox/cli';
import type { Contact, Employee, Invoice, PayrollRecord, Product, StockRow } from '../../sandbox/types';
import { VARIANT_NAMES } from '../../sandbox/variants';
import { startTestSandbox, type TestSandbox, useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createProduct } from './fixtures';
import { startReceiver } from './receiver';

const sandbox = useTestSandbox();

const adminCall = (method: string, path: string, data?: unknown) =>
	axios.request({ method, url: `${sandbox.url}/__sandbox${path}`, data, validateStatus: () => true });

describe('reset', () => {
	it('empties the store and clears faults, logs, webhooks and deliveries', async () => {
		const receiver = await startReceiver();
		try {
			await sandbox.admin.seed({ contacts: 3, products: 2 });
			await sandbox.admin.addWebhook({ url: receiver.url });
			await createContact(sandbox.api);
			await sandbox.admin.setFaults({ latencyMs: 5, rateLimit: { limit: 100, windowMs: 1000 } });
			await sandbox.admin.queueFault({ fault: { kind: 'drop' } });
			expect(await sandbox.admin.reset()).toEqual({ reset: true });
			for (const resource of ['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const) {
				expect(await sandbox.admin.records(resource)).toEqual([]);
			}
			expect(await sandbox.admin.faults()).toMatchObject({ latencyMs: 0, rateLimit: null, queue: [] });
			expect(await sandbox.admin.requests()).toEqual([]);
			expect(await sandbox.admin.webhooks()).toEqual([]);
			expect(await sandbox.admin.deliveries()).toEqual([]);
			expect(await sandbox.admin.events()).toEqual([]);
			expect((await createContact(sandbox.api)).id).toBe(1);
		} finally {
			await receiver.close();
		}
	});
});

describe('requests log', () => {
	it('records method, path, query, body, status and auth of every /api/v1 request, in order', async () => {
		await sandbox.api.post('/contacts?source=crm', { first_name: 'Anna' });
		await sandbox.api.get('/contacts?page=2&per_page=10');
		await sandbox.api.post('/contacts', 'not json', { headers: { 'Content-Type': 'application/json' }, transformRequest: (d) => d });
		await sandbox.admin.records('contacts');
		const log = await sandbox.admin.requests();
		expect(log).toEqual([
			{ seq: 1, at: expect.any(String), method: 'POST', path: '/contacts', query: { source: 'crm' }, body: { first_name: 'Anna' }, status: 201, auth: 'full' },
			{ seq: 2, at: expect.any(String), method: 'GET', path: '/contacts', query: { page: '2', per_page: '10' }, body: null, status: 200, auth: 'full' },
			{ seq: 3, at: expect.any(String), method: 'POST', path: '/contacts', query: {}, body: 'not json', status: 400, auth: 'full' },
		]);
		expect((await sandbox.admin.requests(2)).map((e) => e.seq)).toEqual([3]);
		expect(await sandbox.admin.requests(3)).toEqual([]);
		await sandbox.admin.clearRequests();
		expect(await sandbox.admin.requests()).toEqual([]);
	});
});

describe('seed', () => {
	it('returns the counts created and continues ids after existing records', async () => {
		await createContact(sandbox.api);
		expect(await sandbox.admin.seed({ contacts: 10, invoices: 8, products: 4, employees: 3 })).toEqual({ contacts: 10, invoices: 8, products: 4, employees: 3 });
		const contacts = await sandbox.admin.records('contacts');
		expect(contacts.map((c) => c.id)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
		expect(await sandbox.admin.records('invoices')).toHaveLength(8);
		expect(await sandbox.admin.records('stock')).toHaveLength(12);
		expect((await sandbox.api.get('/products')).data.meta.total).toBe(4);
	});

	it('is deterministic for a seed and day, and differs for another seed', async () => {
		const options = { contacts: 20, invoices: 20, products: 10, employees: 10, seed: 42, today: '2026-06-15' };
		const snapshot = async () =>
			Promise.all((['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const).map((r) => sandbox.admin.records(r)));
		await sandbox.admin.seed(options);
		const first = await snapshot();
		await sandbox.admin.reset();
		await sandbox.admin.seed(options);
		expect(await snapshot()).toEqual(first);
		await sandbox.admin.reset();
		await sandbox.admin.seed({ ...options, seed: 43 });
		expect((await snapshot())[0]).not.toEqual(first[0]);
	});

	it('refuses invoices without contacts, and bad counts', async () => {
		const noContacts = await adminCall('POST', '/seed', { invoices: 5 });
		expect(noContacts.status).toBe(422);
		expect(noContacts.data.error.fields).toEqual({ invoices: [expect.any(String)] });
		expect((await adminCall('POST', '/seed', { contacts: -1 })).status).toBe(422);
		expect((await adminCall('POST', '/seed', { contacts: 'many' })).status).toBe(422);
		expect(await sandbox.admin.records('invoices')).toEqual([]);
	});

	it('seeds 20,000 contacts in one call', async () => {
		expect((await sandbox.admin.seed({ contacts: 20_000 })).contacts).toBe(20_000);
		expect((await sandbox.api.get('/contacts?per_page=1')).data.meta.total).toBe(20_000);
	});
});

describe('stock', () => {
	it('sets one warehouse, keeping reserved unless given and never above the quantity', async () => {
		const product = await createProduct(sandbox.api);
		const first = await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50, reserved: 20 });
		expect(first).toEqual({
			product_id: product.id,
			stock_total: 50,
			low_stock_threshold: 10,
			stock: expect.objectContaining({ warehouse_id: 1, warehouse_code: 'MAIN', quantity: 50, reserved: 20, available: 30 }),
		});
		const second = await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 12 });
		expect(second.stock).toMatchObject({ quantity: 12, reserved: 12, available: 0 });
		await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 3, quantity: 7 });
		expect((await sandbox.api.get(`/products/${product.id}`)).data.data.stock_total).toBe(19);
		const rows = await sandbox.admin.records('stock');
		expect(rows.map((r) => [r.product_id, r.warehouse_code, r.quantity])).toEqual([
			[product.id, 'MAIN', 12],
			[product.id, 'NORTH', 0],
			[product.id, 'SOUTH', 7],
		]);
	});

	it('answers 404 for an unknown product and 422 for bad values', async () => {
		const product = await createProduct(sandbox.api);
		expect((await adminCall('PUT', '/stock', { product_id: 99, warehouse_id: 1, quantity: 1 })).status).toBe(404);
		const bad = await adminCall('PUT', '/stock', { product_id: product.id, warehouse_id: 4, quantity: -1 });
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.data.error.fields).sort()).toEqual(['quantity', 'warehouse_id']);
	});
});

describe('routes', () => {
	it('answers 404 for an unknown admin route or resource, and 400 for a malformed body', async () => {
		expect((await adminCall('GET', '/nothing')).status).toBe(404);
		expect((await adminCall('GET', '/records/customers')).status).toBe(404);
		const malformed = await axios.post(`${sandbox.url}/__sandbox/seed`, '{oops', { headers: { 'Content-Type': 'application/json' }, validateStatus: () => true });
		expect(malformed.status).toBe(400);
	});

	it('answers {success: true, data} without auth', async () => {
		expect((await adminCall('GET', '/health')).data).toEqual({ success: true, data: { ok: true } });
	});
});

describe('variants', () => {
	const putVariant = (body: unknown) => axios.put(`${sandbox.url}/__sandbox/variant`, body, { validateStatus: () => true });

	/** The status and meta of a contacts page, as a client sees them. */
	async function contactsPage(query: string): Promise<{ status: number; meta?: Record<string, number> }> {
		const response = await sandbox.api.get(`/contacts?${query}`);
		return { status: response.status, meta: response.data.meta };
	}

	describe('switching variants at run time', () => {
		it('starts with none: the documented defaults', async () => {
			const { variants, settings } = await sandbox.admin.variant();
			expect(variants).toEqual([]);
			expect(settings).toMatchObject({ maxPerPage: 100, defaultPerPage: 25, perPageAboveMax: 'cap', put: 'merge', errorFormat: 'envelope' });
		});

		it('PUT switches the behaviour on the wire, GET shows it, DELETE goes back to the default', async () => {
			await sandbox.admin.seed({ contacts: 60 });
			const chosen = await sandbox.admin.setVariants(['strict-paging']);
			expect(chosen.variants).toEqual(['strict-paging']);
			expect(chosen.settings).toMatchObject({ maxPerPage: 50, perPageAboveMax: 'refuse-422' });
			expect(await sandbox.admin.variant()).toEqual(chosen);
			expect((await contactsPage('per_page=51')).status).toBe(422);
			expect((await sandbox.admin.resetVariants()).variants).toEqual([]);
			expect(await contactsPage('per_page=51')).toEqual({ status: 200, meta: { page: 1, per_page: 51, total: 60 } });
		});

		it('combines variants that touch different settings', async () => {
			await sandbox.admin.seed({ contacts: 5 });
			await sandbox.admin.setVariants(['strict-paging', 'no-total']);
			expect((await contactsPage('per_page=51')).status).toBe(422);
			expect(await contactsPage('per_page=50')).toEqual({ status: 200, meta: { page: 1, per_page: 50 } });
		});

		it('refuses variants that set one setting differently, naming both, and keeps the one in force', async () => {
			await sandbox.admin.setVariants(['no-total']);
			const response = await putVariant({ variants: ['small-pages', 'strict-paging'] });
			expect(response.status).toBe(422);
			expect(response.data.error.fields.variants[0]).toMatch(/small-pages.*strict-paging.*maxPerPage/);
			expect((await sandbox.admin.variant()).variants).toEqual(['no-total']);
		});

		it('refuses an unknown name, listing the known ones', async () => {
			const response = await putVariant({ variants: ['strict-paging', 'sap-mode'] });
			expect(response.status).toBe(422);
			expect(response.data.error.fields.variants[0]).toMatch(/unknown variant sap-mode.*small-pages/);
			expect((await putVariant({ variants: 'strict-paging' })).status).toBe(422);
		});

		it('takes explicit settings, alone or on top of variants', async () => {
			await sandbox.admin.seed({ contacts: 40 });
			await sandbox.admin.setVariants([], { maxPerPage: 7 });
			expect(await contactsPage('per_page=30')).toEqual({ status: 200, meta: { page: 1, per_page: 7, total: 40 } });
			await sandbox.admin.setVariants(['strict-paging'], { maxPerPage: 30 });
			const refused = await sandbox.api.get('/contacts?per_page=31');
			expect(refused.status).toBe(422);
			expect(refused.data.error.fields).toEqual({ per_page: ['must be at most 30'] });
		});

		it('refuses unknown settings and bad values with 422 per field', async () => {
			const response = await putVariant({ settings: { maxPerPage: 0, errorFormat: 'xml', colour: 'red', put: null } });
			expect(response.status).toBe(422);
			expect(Object.keys(response.data.error.fields).sort()).toEqual(['settings.colour', 'settings.errorFormat', 'settings.maxPerPage', 'settings.put']);
			expect((await sandbox.admin.variant()).variants).toEqual([]);
		});

		it('lists every named variant with what it models', async () => {
			const catalogue = await sandbox.admin.variants();
			expect(catalogue.map((variant) => variant.name)).toEqual(VARIANT_NAMES);
			expect(VARIANT_NAMES).toEqual(expect.arrayContaining(['small-pages', 'strict-paging', 'replace-put', 'problem-json', 'gateway-headers', 'future-events']));
			for (const variant of catalogue) {
				expect(variant.models.length).toBeGreaterThan(10);
				expect(Object.keys(variant.settings).length).toBeGreaterThan(0);
			}
		});

		it('leaves the admin routes alone: they keep their own envelope whatever the error format', async () => {
			await sandbox.admin.setVariants(['problem-json']);
			const response = await axios.get(`${sandbox.url}/__sandbox/records/nothing`, { validateStatus: () => true });
			expect(response.status).toBe(404);
			expect(response.data).toMatchObject({ success: false, error: { code: 'not_found' } });
		});
	});

	describe('variants chosen at start', () => {
		let started: TestSandbox;

		beforeAll(async () => {
			started = await startTestSandbox({ variants: ['no-total', 'delete-204'] });
		});
		afterAll(() => started.close());

		it('are in force from the first request, and again after a reset or a DELETE', async () => {
			const meta = async () => (await started.api.get('/contacts')).data.meta;
			expect(await meta()).toEqual({ page: 1, per_page: 25 });
			await started.admin.setVariants([]);
			expect(await meta()).toEqual({ page: 1, per_page: 25, total: 0 });
			await started.admin.reset();
			expect((await started.admin.variant()).variants).toEqual(['no-total', 'delete-204']);
			await started.admin.setVariants(['strict-paging']);
			expect((await started.admin.resetVariants()).variants).toEqual(['no-total', 'delete-204']);
			expect(await meta()).toEqual({ page: 1, per_page: 25 });
		});

		it('an unknown or conflicting start choice fails the start', async () => {
			await expect(startTestSandbox({ variants: ['nope' as never] })).rejects.toThrow(/unknown variant nope/);
			await expect(startTestSandbox({ variants: ['problem-json', 'errors-array'] })).rejects.toThrow(/errorFormat/);
		});
	});
});

describe('seeded data', () => {
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
});

describe('CLI', () => {
	const CLI = path.resolve(__dirname, '../../.build/sandbox/cli.js');

	/** Every CLI process a test starts; afterEach stops those still running, whether the test passed or not. */
	const children: ChildProcess[] = [];

	/** Starts the compiled CLI (`npm test` compiles it first, as `npm run sandbox` does). */
	function spawnCli(args: string[]): ChildProcess {
		if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build:tools (npm test runs it first)`);
		const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
		children.push(child);
		return child;
	}

	/** Waits for the line with the CLI's /api/v1 URL; rejects when the CLI exits first or prints none within 10 s. */
	function urlLine(child: ChildProcess): Promise<string> {
		return new Promise((resolve, reject) => {
			let output = '';
			const timer = setTimeout(() => reject(new Error(`no URL line within 10 s; it printed: ${output}`)), 10_000);
			const onData = (chunk: Buffer) => {
				output += chunk.toString();
				const match = /http:\/\/127\.0\.0\.1:\d+\/api\/v1/.exec(output);
				if (match) {
					clearTimeout(timer);
					resolve(match[0]);
				}
			};
			child.stdout?.on('data', onData);
			child.stderr?.on('data', onData);
			child.once('exit', (code) => {
				clearTimeout(timer);
				reject(new Error(`the CLI exited (${code}) before listening; it printed: ${output}`));
			});
		});
	}

	const exited = (child: ChildProcess): Promise<number | null> =>
		child.exitCode !== null || child.signalCode !== null
			? Promise.resolve(child.exitCode)
			: new Promise((resolve) => child.once('exit', (code) => resolve(code)));

	afterEach(async () => {
		for (const child of children.splice(0)) {
			child.kill('SIGKILL');
			await exited(child);
		}
	});

	describe('sandbox CLI flags', () => {
		it('defaults to port 4010 and nothing else', () => {
			expect(parseArgs([])).toEqual({ port: 4010 });
		});

		it('reads every documented flag', () => {
			expect(
				parseArgs([
					'--port', '5000', '--host', '0.0.0.0', '--token', 't1', '--readonly-token', 't2',
					'--seed', '7', '--seed-contacts', '100', '--seed-invoices', '50', '--seed-products', '20', '--seed-employees', '10',
					'--rate-limit', '100/1000', '--overdue-sweep-ms', '0', '--webhook-retry-delays', '10,20,40',
				]),
			).toEqual({
				port: 5000,
				host: '0.0.0.0',
				token: 't1',
				readOnlyToken: 't2',
				seed: { seed: 7, contacts: 100, invoices: 50, products: 20, employees: 10 },
				rateLimit: { limit: 100, windowMs: 1000 },
				overdueSweepMs: 0,
				webhookRetryDelaysMs: [10, 20, 40],
			});
		});

		it('reads --variant, comma-separated or repeated', () => {
			expect(parseArgs(['--variant', 'strict-paging,no-total', '--variant', 'replace-put']).variants).toEqual(['strict-paging', 'no-total', 'replace-put']);
		});

		it('turns the rate limit off', () => {
			expect(parseArgs(['--rate-limit', 'off']).rateLimit).toBeNull();
		});

		it.each<[string[], RegExp]>([
			[['--variant', 'sap'], /variant/],
			[['--variant'], /variant/],
			[['--variant', 'small-pages,strict-paging'], /variant/],
			...[['--port', 'abc'], ['--port'], ['--verbose'], ['--rate-limit', '100'], ['--token']].map((argv): [string[], RegExp] => [argv, /./]),
		])('refuses %j', (argv, message) => {
			expect(() => parseArgs(argv)).toThrow(message);
		});
	});

	describe('sandbox CLI as a process', () => {
		it('prints its /api/v1 URL once it accepts requests, serves the API with the token and variants it was given, names them, stops on SIGTERM', async () => {
			const child = spawnCli(['--port', '0', '--token', 'cli-test-token', '--seed-contacts', '3', '--variant', 'strict-paging,no-total']);
			let output = '';
			child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
			const baseUrl = await urlLine(child);
			expect(baseUrl).not.toMatch(/:0\//);
			const headers = { Authorization: 'Bearer cli-test-token' };
			const ok = await fetch(`${baseUrl}/contacts`, { headers });
			expect(ok.status).toBe(200);
			const body = (await ok.json()) as { success: boolean; data: unknown[]; meta: object };
			expect([body.success, body.data.length, body.meta]).toEqual([true, 3, { page: 1, per_page: 25 }]);
			const refused = await fetch(`${baseUrl}/contacts?per_page=51`, { headers });
			expect(((await refused.json()) as { error: { fields: object } }).error.fields).toEqual({ per_page: ['must be at most 50'] });
			const anonymous = await fetch(`${baseUrl}/contacts`);
			expect(anonymous.status).toBe(401);
			expect(await anonymous.json()).toEqual(expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'unauthorized' }) }));
			expect(output).toMatch(/variants: strict-paging, no-total/);
			// After the requests, not straight after the URL line: the CLI installs its signal handlers only after printing
			// its banner, so a SIGTERM sent the moment the URL appears can still end it by the default action (no exit code).
			child.kill('SIGTERM');
			expect(await exited(child)).toBe(0);
		});

		it('refuses an unknown flag with its usage and exit code 2', async () => {
			const failed = spawnCli(['--verbose']);
			let stderr = '';
			failed.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
			expect(await exited(failed)).toBe(2);
			expect(stderr).toMatch(/Unknown option --verbose[\s\S]*Usage: npm run sandbox/);
		});
	});
});
