import type { Contact, Invoice } from '../../sandbox/types';
import { erpTriggers, erpTriggerType, goLive, readExamples, triggerUrl, useCredential, type Example } from '../../tooling/host/examples';
import type { Execution, SavedWorkflow } from '../../tooling/host/types';
import { triggerBranch } from '../../tooling/host/confirmingTrigger';
import { erpApi } from '../../tooling/host/erpApi';
import { MCP_CREDENTIAL } from '../../tooling/host/mcp';
import { atLeast, findExecution, finishedExecution, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { useSession } from './setup/session';
import { postDelivery } from '../../tooling/host/triggers';
import { deliveredTo, overdueInvoice } from './support';

describe('examples/*.json in a real n8n', () => {
	const session = useSession();
	const examples = readExamples();
	const example = (file: string): Example => {
		const found = examples.find((e) => e.file === file);
		if (!found) throw new Error(`examples/${file} is missing`);
		return found;
	};

	test('each names its credential only and uses node types and versions this n8n has', async () => {
		const versions = new Map<string, number[]>();
		for (const type of await session.n8n.nodeTypes()) {
			versions.set(type.name, [...(versions.get(type.name) ?? []), ...[type.version].flat()]);
		}
		expect(examples.map((e) => e.file)).toEqual(
			expect.arrayContaining([
				'contact-import.json',
				'contacts-by-month.json',
				'erp-assistant-mcp.json',
				'invoice-paid-ship-once.json',
				'low-stock-alert-polling.json',
				'low-stock-alert.json',
				'open-orders-by-customer.json',
				'overdue-invoice-reminder.json',
				'payroll-report.json',
			]),
		);
		for (const { file, workflow } of examples) {
			for (const node of workflow.nodes) {
				expect({ file, node: node.name, offered: versions.get(node.type)?.includes(node.typeVersion) }).toEqual({ file, node: node.name, offered: true });
				for (const [type, ref] of Object.entries(node.credentials ?? {})) {
					expect({ file, ref }).toEqual({ file, ref: { id: '', name: type === MCP_CREDENTIAL.type ? MCP_CREDENTIAL.name : 'ERP API' } });
				}
			}
		}
	});

	test('imported as it is, n8n links the ERP nodes to the credential named "ERP API"', async () => {
		const saved = await session.n8n.createWorkflow({ ...example('payroll-report.json').workflow, name: `import ${Date.now()}` });
		const stored = await session.n8n.getWorkflow(saved.id);

		const refs = stored.nodes.flatMap((node) => Object.values(node.credentials ?? {}));
		expect(refs.length).toBeGreaterThan(0);
		expect(refs).toEqual(refs.map(() => ({ id: session.ctx.credentials.good.id, name: 'ERP API' })));
	});

	/** Imports an example with the test credential and runs it as "Execute workflow" does. */
	const runManually = async (file: string, trigger: string) => {
		const saved = await session.n8n.createWorkflow(useCredential(example(file).workflow, session.ctx.credentials.good));
		const since = await session.sandbox.lastRequestSeq();
		const execution = await finishedExecution(session.n8n, await session.n8n.runManually(saved.id, trigger));
		return { execution, requests: await session.sandbox.requests(since) };
	};

	test('contact import, run twice: good rows become ERP contacts once, then are updated; bad rows are reported', async () => {
		const { execution, requests } = await runManually('contact-import.json', 'Start Import');

		expect(execution.status).toBe('success');
		const results = nodeOutput(execution, 'Import Result');
		expect(results.map((r) => [r.email, r.status])).toEqual([
			['sofia.marino@marino-arredamenti.it', 'created'],
			['jonas.becker@becker-soehne.de', 'created'],
			['emma.dubois@atelier-dubois', 'failed'],
			['liam.oconnor@oconnor-freight.ie', 'created'],
			['a.nowak@nowak-logistyka.pl', 'failed'],
		]);
		// The e-mail shape is the API document's rule, checked before sending; a required first name is the ERP's.
		expect(results[2].error).toMatch(/^Field email "emma.dubois@atelier-dubois" is not a valid e-mail address/);
		expect(results[4].error).toBe('The ERP refused to create the contact (422): first_name: is required');
		const writes = requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
		// The rows go side by side (Concurrency): the ERP may see the refused one before the others.
		expect(writes.sort()).toEqual([...Array(3).fill('POST /contacts 201'), 'POST /contacts 422']);

		const contacts = await session.sandbox.records('contacts');
		for (const result of results.filter((r) => r.status === 'created')) {
			expect(contacts.find((c) => c.id === result.contact_id)).toMatchObject({ email: result.email, notes: 'Imported by n8n' });
		}
		expect(contacts.find((c) => c.last_name === "O'Connor")).toMatchObject({ company: "O'Connor Freight Ltd", phone: '+353 1 234 5678' });

		const again = await runManually('contact-import.json', 'Start Import');
		const second = nodeOutput(again.execution, 'Import Result');
		expect(second.map((r) => r.status)).toEqual(['updated', 'updated', 'failed', 'updated', 'failed']);
		expect(second.map((r) => r.contact_id)).toEqual(results.map((r) => r.contact_id));
		expect(again.requests.filter((r) => r.method === 'POST' && r.status !== 422)).toEqual([]);
		expect(await session.sandbox.records('contacts')).toHaveLength(contacts.length);
	});

	test('payroll report: per department, the latest pay run of each active employee as the ERP booked it', async () => {
		const { execution } = await runManually('payroll-report.json', 'Run Report');
		const employees = (await session.sandbox.records('employees')).filter((e) => e.status === 'active');
		const payroll = await session.sandbox.records('payroll');
		const expected = new Map<string, { department: string; employees: number; gross: number; net: number }>();
		for (const employee of employees) {
			const [latest] = payroll.filter((p) => p.employee_id === employee.id).sort((a, b) => b.period.localeCompare(a.period));
			if (!latest) continue; // contractors and new hires have no pay run
			const department = employee.department ?? 'No department';
			const row = expected.get(department) ?? { department, employees: 0, gross: 0, net: 0 };
			expected.set(department, { department, employees: row.employees + 1, gross: row.gross + latest.gross, net: row.net + latest.net });
		}

		expect(execution.status).toBe('success');
		const report = nodeOutput(execution, 'Payroll by Department');
		expect(report.map(({ department, employees: count, gross, net }) => ({ department, employees: count, gross, net }))).toEqual(
			[...expected.values()]
				.sort((a, b) => a.department.localeCompare(b.department))
				.map((row) => ({ ...row, gross: expect.closeTo(row.gross, 2), net: expect.closeTo(row.net, 2) })),
		);
	});

	test("open orders by customer (Custom API Call, GET /orders): every open order of the ERP once, added up per customer", async () => {
		const { execution, requests } = await runManually('open-orders-by-customer.json', 'Run Report');
		const open = (await session.sandbox.records('orders')).filter((o) => o.status === 'open');
		const customers = [...new Set(open.map((o) => o.customer))];

		expect(execution.status).toBe('success');
		expect(open.length).toBeGreaterThan(0);
		const rows = nodeOutput(execution, 'Open Orders by Customer');
		expect(rows.map((r) => r.customer).sort()).toEqual([...customers].sort());
		for (const customer of customers) {
			const theirs = open.filter((o) => o.customer === customer);
			expect(rows.find((r) => r.customer === customer)).toMatchObject({
				open_orders: theirs.length,
				total: expect.closeTo(theirs.reduce((sum, o) => sum + o.total, 0), 2),
				references: theirs.map((o) => o.reference),
			});
		}
		const totals = rows.map((r) => r.total as number);
		expect(totals).toEqual([...totals].sort((a, b) => b - a));
		expect(requests.map((r) => `${r.method} ${r.path} ${r.query.status} ${String(r.status)}`)).toEqual(requests.map(() => 'GET /orders open 200'));
	});

	test('contacts by month: every contact read once, each month in a sub-workflow of its own that hands back one item', async () => {
		// Seeded contacts were created over the last three years, so they fall into many months.
		await session.sandbox.seed({ contacts: 300 });
		const contacts = await session.sandbox.records('contacts');
		const { execution } = await runManually('contacts-by-month.json', 'Start');

		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Contacts Read')).toEqual([{ sum_contacts: contacts.length }]);
		const months = execution.data?.resultData.runData['Read and Process the Part'] ?? [];
		expect(months.length).toBeGreaterThan(12);
		for (const month of months) expect(month.data?.main[0]).toHaveLength(1);
	});

	/** Imports an example, activates it and subscribes its ERP Trigger (if any) to the sandbox, as `npm start` does. */
	const activateExample = async (file: string) => {
		const saved = await session.n8n.createWorkflow(useCredential(example(file).workflow, session.ctx.credentials.good));
		expect(await goLive(session.n8n, session.sandbox, saved)).toHaveLength(1);
		return saved;
	};

	describe('overdue invoice reminder', () => {
		let workflow: SavedWorkflow;
		let workflowId: string;
		beforeAll(async () => {
			workflow = await activateExample('overdue-invoice-reminder.json');
			workflowId = workflow.id;
		});

		/** A new contact's invoice of 1,285.20 EUR, 10 days overdue. */
		const overdueInvoiceFor = async (contact: Partial<Contact>) => {
			const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', contact);
			return await overdueInvoice(session, 10, { contact_id: id, lines: [{ description: 'Consulting, 8 hours', quantity: 8, unit_price: 135, tax_rate: 19 }] });
		};

		test("an invoice turning overdue yields a reminder to the contact, from the ERP's own records; a contact without e-mail gets a call task instead", async () => {
			const invoice = await overdueInvoiceFor({ first_name: 'Hanna', last_name: 'Virtanen', email: 'hanna.virtanen@saimaa-tools.fi' });
			const execution = await findExecution(session.n8n, workflowId, 'Compose Reminder', (r) => r.invoice_number === invoice.number);
			// One after the other: Remove Duplicates' keys are one database row, which two executions side by side can fail to write.
			const noEmail = await overdueInvoiceFor({ first_name: 'Oskar', last_name: 'Berg', phone: '+46 31 555 0199' });
			const call = await findExecution(session.n8n, workflowId, 'Call Instead', (r) => r.invoice_number === noEmail.number);

			expect(execution.status).toBe('success');
			const [reminder] = nodeOutput(execution, 'Compose Reminder');
			expect(reminder).toEqual({
				to: 'hanna.virtanen@saimaa-tools.fi',
				subject: `Payment reminder: invoice ${invoice.number} is overdue`,
				text: expect.stringContaining(`over ${invoice.amount_due.toFixed(2)} EUR was due on ${invoice.due_date} and is now 10 days overdue`),
				invoice_number: invoice.number,
				amount_due: 1285.2,
				currency: 'EUR',
				days_overdue: 10,
			});
			expect(reminder.text).toMatch(/^Dear Hanna Virtanen,/);
			expect(nodeOutput(call, 'Call Instead')).toEqual([
				{ task: `Call Oskar Berg (+46 31 555 0199) about invoice ${noEmail.number}: no e-mail address on file`, invoice_number: noEmail.number },
			]);
			expect(nodeOutput(call, 'Compose Reminder')).toEqual([]);
		});

		test('the ERP sending a delivery again (same body, same X-Erp-Delivery) composes no second reminder', async () => {
			const url = triggerUrl(session.ctx.n8nUrl, erpTriggers(workflow)[0], await erpTriggerType(session.n8n));
			const contact = { first_name: 'Jonas', last_name: 'Lind', email: 'jonas.lind@lind-bygg.se' };
			const byInvoice = (data: Record<string, unknown>, invoice: Invoice) => data.invoice_id === invoice.id;
			const { result: invoice, delivery } = await deliveredTo(session.sandbox, url, 'invoice.overdue', () => overdueInvoiceFor(contact), byInvoice);
			const ofThisDelivery = (e: Execution) => nodeOutput(e, 'ERP Trigger')[0]?.deliveryKey === delivery.id;
			await waitForExecutions(session.n8n, workflowId, atLeast(1, ofThisDelivery));

			const resent = await postDelivery(url, delivery.body as object, delivery.id);
			const [first, again] = (await waitForExecutions(session.n8n, workflowId, atLeast(2, ofThisDelivery))).filter(ofThisDelivery);

			expect(resent.status).toBe(200);
			expect([first.status, again.status]).toEqual(['success', 'success']);
			expect(nodeOutput(first, 'Compose Reminder')).toEqual([expect.objectContaining({ to: 'jonas.lind@lind-bygg.se', invoice_number: invoice.number })]);
			expect(nodeOutput(again, 'Once per Event')).toEqual([]);
			expect(Object.keys(again.data?.resultData.runData ?? {}).sort()).toEqual(['ERP Trigger', 'Once per Event']);
		});
	});

	describe('low-stock alert', () => {
		let workflowId: string;
		beforeAll(async () => {
			workflowId = (await activateExample('low-stock-alert.json')).id;
		});

		test('stock falling below the threshold yields a purchase request sized from the live stock per warehouse', async () => {
			const product = (await session.sandbox.records('products')).find((p) => p.active && p.stock_total >= p.low_stock_threshold + 5);
			if (!product) throw new Error('no well-stocked product in the sandbox');
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 2 });
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 2, quantity: 0 });
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 3, quantity: 1 });
			const execution = await findExecution(session.n8n, workflowId, 'Decide Reorder', (r) => r.product_id === product.id);
			const rows = (await session.sandbox.records('stock')).filter((r) => r.product_id === product.id);
			const available = rows.reduce((sum, r) => sum + r.available, 0);

			expect(execution.status).toBe('success');
			expect(nodeOutput(execution, 'Decide Reorder')).toEqual([
				expect.objectContaining({
					sku: product.sku,
					available,
					reorder: true,
					reorder_quantity: product.low_stock_threshold * 3 - available,
					warehouses: rows.map((r) => ({ warehouse: r.warehouse_code, quantity: r.quantity, available: r.available })),
				}),
			]);
			expect(nodeOutput(execution, 'Purchase Request')).toEqual([
				expect.objectContaining({ sku: product.sku, quantity: product.low_stock_threshold * 3 - available }),
			]);
		});

		test('a low-stock delivery for a product that is well stocked (stale, or forged) is not confirmed: no purchase request, the reason on Unconfirmed', async () => {
			const product = (await session.sandbox.records('products')).find((p) => p.active && p.stock_total >= p.low_stock_threshold * 4);
			if (!product) throw new Error('no well-stocked product in the sandbox');
			// An event that arrives late: the product is back in stock.
			await session.sandbox.emit('product.low_stock', {
				product_id: product.id,
				sku: product.sku,
				name: product.name,
				stock_total: 1,
				low_stock_threshold: product.low_stock_threshold,
			});
			const ofProduct = (e: Execution) => triggerBranch(e, 1).some((item) => item.data.product_id === product.id);
			const [execution] = (await waitForExecutions(session.n8n, workflowId, atLeast(1, ofProduct))).filter(ofProduct);

			expect(triggerBranch(execution, 1)).toEqual([
				expect.objectContaining({ confirmation: expect.objectContaining({ status: 'contradicted', reason: expect.stringContaining(String(product.id)) }) }),
			]);
			expect(triggerBranch(execution, 0)).toEqual([]);
			expect(Object.keys(execution.data?.resultData.runData ?? {})).toEqual(['ERP Trigger']);
		});
	});

	describe('low-stock alert (polling)', () => {
		let workflowId: string;
		beforeAll(async () => {
			workflowId = (await activateExample('low-stock-alert-polling.json')).id;
		});
		// Its polls would otherwise show in the request logs of the test files after this one.
		afterAll(() => session.n8n.deactivateWorkflow(workflowId));

		test('products falling low get one purchase request each within a poll, with no URL given to the ERP', async () => {
			const products = (await session.sandbox.records('products'))
				.filter((p) => p.active && p.stock_total >= p.low_stock_threshold + 5)
				.slice(-2);
			expect(products).toHaveLength(2);
			const stock = await session.sandbox.records('stock');
			for (const product of products) {
				for (const row of stock.filter((r) => r.product_id === product.id)) {
					await session.sandbox.setStock({ product_id: product.id, warehouse_id: row.warehouse_id, quantity: 1 });
				}
			}
			// n8n polls every minute at the shortest.
			for (const product of products) {
				const execution = await findExecution(session.n8n, workflowId, 'Decide Reorder', (r) => r.product_id === product.id, 90_000);
				const rows = (await session.sandbox.records('stock')).filter((r) => r.product_id === product.id);
				const available = rows.reduce((sum, r) => sum + r.available, 0);
				expect(nodeOutput(execution, 'Purchase Request')).toEqual(
					expect.arrayContaining([expect.objectContaining({ sku: product.sku, quantity: product.low_stock_threshold * 3 - available })]),
				);
			}
			const decided = (await waitForExecutions(session.n8n, workflowId)).flatMap((e) => nodeOutput(e, 'Decide Reorder'));
			for (const product of products) expect(decided.filter((r) => r.product_id === product.id)).toHaveLength(1);
		});
	});
});
