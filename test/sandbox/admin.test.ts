import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { parseArgs } from '../../sandbox/cli';
import { useTestSandbox } from '../../tooling/harness/sandbox';
import { createContact, createProduct } from './fixtures';
import { startReceiver } from './receiver';

// The admin routes where a broken one would let other tests pass silently: a reset that leaves state behind, a
// request log that misses what was sent, a seed that is not what it says, stock that does not add up.

const sandbox = useTestSandbox();

const RESOURCES = ['contacts', 'invoices', 'products', 'employees', 'stock', 'payroll'] as const;
const snapshot = () => Promise.all(RESOURCES.map((r) => sandbox.admin.records(r) as Promise<unknown[]>));

it('reset empties the store, faults, the log, webhooks, events and deliveries; ids start at 1 again', async () => {
	const receiver = await startReceiver();
	try {
		await sandbox.admin.seed({ contacts: 3, invoices: 2, products: 2, employees: 2 });
		await sandbox.admin.addWebhook({ url: receiver.url });
		await createContact(sandbox.api);
		await sandbox.admin.setFaults({ latencyMs: 5, visibleAfterMs: 60_000, rateLimit: { limit: 100, windowMs: 1000 } });
		await sandbox.admin.queueFault({ fault: { kind: 'drop' } });
		expect(await sandbox.admin.reset()).toEqual({ reset: true });
		expect(await snapshot()).toEqual(RESOURCES.map(() => []));
		expect(await sandbox.admin.faults()).toMatchObject({ latencyMs: 0, visibleAfterMs: 0, rateLimit: null, queue: [] });
		const rest = await Promise.all([sandbox.admin.requests(), sandbox.admin.webhooks(), sandbox.admin.deliveries(), sandbox.admin.events()]);
		expect(rest).toEqual([[], [], [], []]);
		expect((await createContact(sandbox.api)).id).toBe(1);
	} finally {
		await receiver.close();
	}
});

it('the request log records method, path, query, body, status and auth of each /api/v1 request in order; after a seq; cleared', async () => {
	await sandbox.api.post('/contacts?source=crm', { first_name: 'Anna' });
	await sandbox.api.get('/contacts?page=2&per_page=10');
	await sandbox.api.post('/contacts', 'not json', { headers: { 'Content-Type': 'application/json' }, transformRequest: (d) => d });
	await sandbox.admin.records('contacts');
	expect(await sandbox.admin.requests()).toEqual([
		{ seq: 1, at: expect.any(String), method: 'POST', path: '/contacts', query: { source: 'crm' }, body: { first_name: 'Anna' }, status: 201, auth: 'full' },
		{ seq: 2, at: expect.any(String), method: 'GET', path: '/contacts', query: { page: '2', per_page: '10' }, body: null, status: 200, auth: 'full' },
		{ seq: 3, at: expect.any(String), method: 'POST', path: '/contacts', query: {}, body: 'not json', status: 400, auth: 'full' },
	]);
	expect((await sandbox.admin.requests(2)).map((e) => e.seq)).toEqual([3]);
	await sandbox.admin.clearRequests();
	expect(await sandbox.admin.requests()).toEqual([]);
});

describe('seed', () => {
	it('creates the counts it answers, after existing ids, the same for a seed and day, other for another seed', async () => {
		await createContact(sandbox.api);
		const options = { contacts: 20, invoices: 20, products: 10, employees: 10, seed: 42, today: '2026-06-15' };
		expect(await sandbox.admin.seed(options)).toEqual({ contacts: 20, invoices: 20, products: 10, employees: 10 });
		expect((await sandbox.admin.records('contacts')).map((c) => c.id)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
		expect((await sandbox.api.get('/products')).data.meta.total).toBe(10);
		await sandbox.admin.reset();
		await sandbox.admin.seed(options);
		const first = await snapshot();
		await sandbox.admin.reset();
		await sandbox.admin.seed(options);
		expect(await snapshot()).toEqual(first);
		await sandbox.admin.reset();
		await sandbox.admin.seed({ ...options, seed: 43 });
		expect((await snapshot())[0]).not.toEqual(first[0]);
	});

	it('seeds records the API itself accepts, invoices in every state with totals from their lines, stock that adds up', async () => {
		await sandbox.admin.seed({ contacts: 60, invoices: 200, products: 40, seed: 9 });
		const [contacts, invoices, products, stock] = await Promise.all([sandbox.admin.records('contacts'), sandbox.admin.records('invoices'), sandbox.admin.records('products'), sandbox.admin.records('stock')]);
		for (const c of contacts.slice(0, 30)) {
			expect((await sandbox.api.post('/contacts', { first_name: c.first_name, last_name: c.last_name, email: c.email, phone: c.phone, company: c.company })).status).toBe(201);
		}
		expect(new Set(invoices.map((i) => i.status))).toEqual(new Set(['draft', 'sent', 'overdue', 'paid']));
		const cents = (n: number) => Math.round(n * 100);
		for (const i of invoices) {
			expect(cents(i.subtotal)).toBe(Math.round(i.lines.reduce((sum, l) => sum + l.quantity * cents(l.unit_price), 0)));
			expect(i.amount_due).toBe(i.status === 'paid' ? 0 : i.total);
		}
		for (const p of products) expect(p.stock_total).toBe(stock.filter((r) => r.product_id === p.id).reduce((sum, r) => sum + r.quantity, 0));
	});

	it.each([{ invoices: 5 }, { contacts: -1 }, { contacts: 'many' }])('refuses %j with 422', async (body) => {
		const answer = await fetch(`${sandbox.url}/__sandbox/seed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		expect(answer.status).toBe(422);
		expect(await sandbox.admin.records('invoices')).toEqual([]);
	});
});

it('setStock sets one warehouse, keeping reserved at most the quantity; stock_total is the sum', async () => {
	const product = await createProduct(sandbox.api);
	const first = await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 50, reserved: 20 });
	expect(first).toMatchObject({ stock_total: 50, stock: { warehouse_code: 'MAIN', quantity: 50, reserved: 20, available: 30 } });
	expect((await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 1, quantity: 12 })).stock).toMatchObject({ reserved: 12, available: 0 });
	await sandbox.admin.setStock({ product_id: product.id, warehouse_id: 3, quantity: 7 });
	expect((await sandbox.api.get(`/products/${product.id}`)).data.data.stock_total).toBe(19);
	expect((await sandbox.api.get(`/products/${product.id}/stock`)).data.data.map((r: { quantity: number }) => r.quantity)).toEqual([12, 0, 7]);
});

describe('the CLI (npm run sandbox)', () => {
	it('reads its flags and refuses bad ones', () => {
		expect(parseArgs([])).toEqual({ port: 4010 });
		expect(parseArgs(['--port', '5000', '--token', 't1', '--seed', '7', '--seed-contacts', '100', '--rate-limit', '100/1000', '--webhook-retry-delays', '10,20', '--variant', 'no-total', '--variant', 'strict-paging'])).toEqual({
			port: 5000,
			token: 't1',
			seed: { seed: 7, contacts: 100 },
			rateLimit: { limit: 100, windowMs: 1000 },
			webhookRetryDelaysMs: [10, 20],
			variants: ['no-total', 'strict-paging'],
		});
		expect(parseArgs(['--rate-limit', 'off']).rateLimit).toBeNull();
		for (const argv of [['--port', 'abc'], ['--verbose'], ['--rate-limit', '100'], ['--variant', 'sap'], ['--variant', 'small-pages,strict-paging']]) expect(() => parseArgs(argv)).toThrow();
	});

	it('prints its /api/v1 URL once it serves the token and variants given, and exits 0 on SIGTERM', async () => {
		const cli = path.resolve(__dirname, '../../.build/sandbox/cli.js');
		if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build:tools (npm test runs it first)`);
		const child = spawn(process.execPath, [cli, '--port', '0', '--token', 'cli-token', '--seed-contacts', '3', '--variant', 'no-total'], { stdio: ['ignore', 'pipe', 'pipe'] });
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		try {
			const baseUrl = await new Promise<string>((resolve, reject) => {
				let output = '';
				child.stdout.on('data', (chunk: Buffer) => {
					output += chunk.toString();
					const match = /http:\/\/127\.0\.0\.1:\d+\/api\/v1/.exec(output);
					if (match) resolve(match[0]);
				});
				void exited.then((code) => reject(new Error(`the CLI exited (${code}): ${output}`)));
			});
			const answer = await fetch(`${baseUrl}/contacts`, { headers: { Authorization: 'Bearer cli-token' } });
			expect(((await answer.json()) as { meta: object }).meta).toEqual({ page: 1, per_page: 25 });
			expect((await fetch(`${baseUrl}/contacts`)).status).toBe(401);
			// After the requests: the CLI installs its signal handlers only after printing its URL.
			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		} finally {
			child.kill('SIGKILL');
		}
	});
});
