import type { Contact, Invoice } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { waitForExecutions } from '../../tooling/host/executions';
import { fieldsParameter } from '../../tooling/host/fields';
import { calls, runErp } from '../../tooling/host/runErp';
import { byId, splitOutNode } from '../../tooling/host/workflows';
import { useSession } from './setup/session';

const session = useSession();

describe('ERP node › Contact, inside a real n8n', () => {
	test('Create: values from the webhook body become a contact in the ERP', async () => {
		const input = {
			first: 'Greta',
			last: 'Lindqvist',
			email: 'greta.lindqvist@lindqvist-trading.se',
			phone: '+46 8 123 4567',
			company: 'Lindqvist Trading AB',
		};
		const run = await runErp(
			session,
			{
				resource: 'contact',
				operation: 'create',
				columns: fieldsParameter('contact', {
					first_name: '={{ $json.body.first }}',
					last_name: '={{ $json.body.last }}',
					email: '={{ $json.body.email }}',
					phone: '={{ $json.body.phone }}',
					company: '={{ $json.body.company }}',
					notes: 'Met at the Stockholm trade fair',
					custom_fields: '={{ { vat_number: "SE556677889901" } }}',
				}),
			},
			{ input },
		);

		expect(run.status).toBe(200);
		expect(calls(run)).toEqual(['POST /contacts 201']);
		const expected = {
			first_name: 'Greta',
			last_name: 'Lindqvist',
			email: 'greta.lindqvist@lindqvist-trading.se',
			phone: '+46 8 123 4567',
			company: 'Lindqvist Trading AB',
			notes: 'Met at the Stockholm trade fair',
			custom_fields: { vat_number: 'SE556677889901' },
		};
		expect(run.requests[0].body).toEqual(expected);
		const stored = (await session.sandbox.records('contacts')).filter((c) => c.email === input.email);
		expect(stored).toEqual([expect.objectContaining(expected)]);
		// The ERP's answer (id, first_name, created_at) over what was sent: a next node finds the e-mail without a read.
		expect(run.items).toEqual([{ ...expected, id: stored[0].id, created_at: stored[0].created_at }]);
	});

	test('Create with Map Automatically: each row becomes a contact, its fields taken by name', async () => {
		const rows = [
			{ first_name: 'Ines', last_name: 'Moreau', email: 'ines.moreau@atelier-moreau.fr', phone: '+33 1 42 68 53 00', row: 2 },
			{ first_name: 'Tomasz', email: 'tomasz@nowak-logistics.pl', company: 'Nowak Logistics', custom_fields: { tier: 'silver' }, row: 3 },
		];
		const run = await runErp(
			session,
			{ resource: 'contact', operation: 'create', columns: fieldsParameter('contact', null, 'autoMapInputData'), ignoreFields: 'row' },
			{ input: { rows }, before: [splitOutNode('body.rows')] },
		);

		expect(run.status).toBe(200);
		expect(calls(run)).toEqual(['POST /contacts 201', 'POST /contacts 201']);
		expect(run.requests.map((request) => request.body)).toEqual(rows.map(({ row: _row, ...fields }) => fields));
		const stored = (await session.sandbox.records('contacts')).filter((c) => rows.some((r) => r.email === c.email));
		expect(stored.map((c) => c.first_name).sort()).toEqual(['Ines', 'Tomasz']);
		expect(run.items.map((item) => item.first_name)).toEqual(['Ines', 'Tomasz']);
	});

	test('Create with Map Automatically: an input field the ERP does not know stops the run, naming it', async () => {
		const run = await runErp(
			session,
			{ resource: 'contact', operation: 'create', columns: fieldsParameter('contact', null, 'autoMapInputData') },
			{ input: { rows: [{ first_name: 'Ines', fax: '+33 1 42 68 53 01' }] }, before: [splitOutNode('body.rows')] },
		);

		expect(run.status).toBe(500);
		expect(run.requests).toEqual([]);
		const [execution] = await waitForExecutions(session.n8n, run.workflowId);
		expect(execution.data?.resultData.error?.message).toBe('Input field "fax" is not a field of a contact');
	});

	test('Create or Update run twice over the same rows: created, then updated; the ERP holds each contact once', async () => {
		const stamp = Date.now();
		const rows = (label: string) => [
			{ first_name: `Ines ${label}`, email: `ines.${stamp}@atelier-moreau.fr` },
			{ first_name: `Tomasz ${label}`, email: `tomasz.${stamp}@nowak-logistics.pl` },
		];
		const upsert = { resource: 'contact', operation: 'upsert', columns: fieldsParameter('contact', null, 'autoMapInputData') };
		const before = [splitOutNode('body.rows')];
		const first = await runErp(session, upsert, { input: { rows: rows('first') }, before });
		const second = await runErp(session, upsert, { input: { rows: rows('second') }, before });

		expect(first.items.map((item) => item.action)).toEqual(['created', 'created']);
		expect(second.items.map((item) => item.action)).toEqual(['updated', 'updated']);
		expect(second.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const stored = (await session.sandbox.records('contacts')).filter((c) => String(c.email).includes(String(stamp)));
		expect(stored.map((c) => c.first_name).sort()).toEqual(['Ines second', 'Tomasz second']);
		expect(second.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
	});

	test('Get: outputs the contact exactly as the ERP holds it', async () => {
		const contact = (await session.sandbox.records('contacts'))[2];
		const run = await runErp(session, { resource: 'contact', operation: 'get', contactId: byId(contact.id) });

		expect(calls(run)).toEqual([`GET /contacts/${contact.id} 200`]);
		expect(run.items).toEqual([contact]);
	});

	test('Get Many: a company filter returns exactly the ERP contacts of that company', async () => {
		const all = await session.sandbox.records('contacts');
		const company = all.find((c) => c.company)?.company as string;
		const run = await runErp(session, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: { company },
		});

		expect(run.requests.map((r) => [r.path, r.query.company, r.status])).toEqual([['/contacts', company, 200]]);
		expect(run.items.map((c) => c.id)).toEqual(all.filter((c) => c.company === company).map((c) => c.id));
	});

	test('Get Many: Limit returns the first contacts in the ERP order', async () => {
		const all = await session.sandbox.records('contacts');
		const run = await runErp(session, { resource: 'contact', operation: 'getAll', returnAll: false, limit: 7 });

		expect(run.requests.map((r) => [r.path, r.query.per_page])).toEqual([['/contacts', '7']]);
		expect(run.items).toEqual(all.slice(0, 7));
	});

	test('Update: changes only the chosen fields in the ERP', async () => {
		const before = (await session.sandbox.records('contacts'))[4];
		const run = await runErp(session, {
			resource: 'contact',
			operation: 'update',
			contactId: byId(before.id),
			updateFields: { phone: '+49 40 9876543', company: 'Hanse Handelshaus GmbH' },
		});

		expect(calls(run)).toEqual([`GET /contacts/${before.id} 200`, `PUT /contacts/${before.id} 200`]);
		const fields = Object.fromEntries(Object.entries(before).filter(([name]) => !['id', 'created_at', 'updated_at'].includes(name)));
		expect(run.requests[1].body).toEqual({ ...fields, phone: '+49 40 9876543', company: 'Hanse Handelshaus GmbH' });
		const after = await session.sandbox.record('contacts', before.id);
		expect(after).toEqual({ ...before, phone: '+49 40 9876543', company: 'Hanse Handelshaus GmbH', updated_at: after?.updated_at });
		expect(run.items).toEqual([after]);
	});

	test('Delete: the contact is gone from the ERP', async () => {
		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Temporary', email: 'temp@example.com' });
		const run = await runErp(session, { resource: 'contact', operation: 'delete', contactId: byId(id) });

		expect(calls(run)).toEqual([`DELETE /contacts/${id} 200`]);
		expect(await session.sandbox.record('contacts', id)).toBeUndefined();
		expect(run.items).toEqual([{ deleted: true, id }]);
	});
});

describe('ERP node › Employee, inside a real n8n', () => {
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

describe('ERP node › Product, inside a real n8n', () => {
	test('Create: a product with its price, unit and low-stock threshold in the ERP', async () => {
		const sku = `DESK-OAK-${Date.now()}`;
		const run = await runErp(session, {
			resource: 'product',
			operation: 'create',
			columns: fieldsParameter('product', {
				sku,
				name: 'Oak Standing Desk',
				unit_price: 549.9,
				unit: 'pcs',
				low_stock_threshold: 5,
				description: 'Electric, 70–120 cm',
			}),
		});

		expect(calls(run)).toEqual(['POST /products 201']);
		const stored = (await session.sandbox.records('products')).filter((p) => p.sku === sku);
		expect(stored).toEqual([
			expect.objectContaining({
				name: 'Oak Standing Desk',
				unit_price: 549.9,
				unit: 'pcs',
				low_stock_threshold: 5,
				description: 'Electric, 70–120 cm',
				active: true,
				stock_total: 0,
			}),
		]);
		expect(run.items).toEqual(stored);
	});

	test('Get: outputs the product exactly as the ERP holds it', async () => {
		const product = (await session.sandbox.records('products'))[3];
		const run = await runErp(session, { resource: 'product', operation: 'get', productId: byId(product.id) });

		expect(calls(run)).toEqual([`GET /products/${product.id} 200`]);
		expect(run.items).toEqual([product]);
	});

	test('Get Many: Low Stock Only returns exactly the ERP products below their threshold', async () => {
		const run = await runErp(session, {
			resource: 'product',
			operation: 'getAll',
			returnAll: true,
			filters: { lowStock: 'true' },
		});
		const low = (await session.sandbox.records('products')).filter((p) => p.stock_total < p.low_stock_threshold);

		expect(low.length).toBeGreaterThan(0);
		expect(run.requests.map((r) => [r.path, r.query.low_stock, r.status])).toEqual([['/products', 'true', 200]]);
		expect(run.items).toEqual(low);
	});

	test('Update: a new price and the product deactivated in the ERP', async () => {
		const before = (await session.sandbox.records('products'))[1];
		const run = await runErp(session, {
			resource: 'product',
			operation: 'update',
			productId: byId(before.id),
			updateFields: { unitPrice: 19.95, active: false },
		});

		expect(calls(run)).toEqual([`GET /products/${before.id} 200`, `PUT /products/${before.id} 200`]);
		const assigned = ['id', 'created_at', 'updated_at', 'stock_total'];
		const fields = Object.fromEntries(Object.entries(before).filter(([name]) => !assigned.includes(name)));
		expect(run.requests[1].body).toEqual({ ...fields, unit_price: 19.95, active: false });
		const after = await session.sandbox.record('products', before.id);
		expect(after).toEqual({ ...before, unit_price: 19.95, active: false, updated_at: after?.updated_at });
		expect(run.items).toEqual([after]);
	});

	test('Get Stock: one item per warehouse, as the ERP counts it', async () => {
		const product = (await session.sandbox.records('products'))[0];
		const run = await runErp(session, { resource: 'product', operation: 'getStock', productId: byId(product.id) });
		const stock = (await session.sandbox.records('stock'))
			.filter((row) => row.product_id === product.id)
			.map(({ product_id: _product, ...row }) => row);

		expect(calls(run)).toEqual([`GET /products/${product.id}/stock 200`]);
		expect(stock.map((row) => row.warehouse_code)).toEqual(['MAIN', 'NORTH', 'SOUTH']);
		expect(run.items.map(({ product_id: _product, ...row }) => row)).toEqual(stock);
		expect(stock.reduce((sum, row) => sum + row.quantity, 0)).toBe(product.stock_total);
	});
});

describe('ERP node › Invoice, inside a real n8n', () => {
	const draftInvoice = async () => {
		const [contact] = await session.sandbox.records('contacts');
		return await erpApi<Invoice>(session.ctx, 'POST', '/invoices', {
			contact_id: contact.id,
			lines: [{ description: 'Workshop day', unit_price: 950, tax_rate: 19 }],
		});
	};

	test('Create: line items become an invoice the ERP totals itself', async () => {
		const contact = (await session.sandbox.records('contacts'))[1];
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'create',
			contactId: byId(contact.id),
			lineItems: {
				line: [
					{ description: 'Oak standing desk', quantity: 2, unitPrice: 480, taxRate: 19 },
					{ description: 'Delivery and assembly', quantity: 1, unitPrice: 60, taxRate: 19 },
				],
			},
			additionalFields: { notes: 'PO 4711', currency: 'EUR' },
		});

		expect(calls(run)).toEqual(['POST /invoices 201']);
		const stored = await session.sandbox.record('invoices', run.items[0].id as number);
		expect(stored).toMatchObject({
			contact_id: contact.id,
			status: 'draft',
			currency: 'EUR',
			notes: 'PO 4711',
			lines: [
				{ description: 'Oak standing desk', quantity: 2, unit_price: 480, tax_rate: 19 },
				{ description: 'Delivery and assembly', quantity: 1, unit_price: 60, tax_rate: 19 },
			],
			subtotal: 1020,
			tax_total: 193.8,
			total: 1213.8,
		});
		expect(run.items).toEqual([stored]);
	});

	test('Get: outputs the invoice exactly as the ERP holds it', async () => {
		const invoice = (await session.sandbox.records('invoices'))[5];
		const run = await runErp(session, { resource: 'invoice', operation: 'get', invoiceId: byId(invoice.id) });

		expect(calls(run)).toEqual([`GET /invoices/${invoice.id} 200`]);
		expect(run.items).toEqual([invoice]);
	});

	test('Get Many: the Overdue filter with Return All returns every overdue invoice of the ERP', async () => {
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'overdue' },
		});
		const overdue = (await session.sandbox.records('invoices')).filter((i) => i.status === 'overdue');

		expect(overdue.length).toBeGreaterThan(1);
		expect(run.requests.map((r) => [r.path, r.query.status, r.status])).toEqual([['/invoices', 'overdue', 200]]);
		expect(run.items).toEqual(overdue);
	});

	test('Send: a draft invoice is sent by the ERP', async () => {
		const draft = await draftInvoice();
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'send',
			invoiceId: byId(draft.id),
			additionalFields: { email: 'accounts@example.com' },
		});

		expect(calls(run)).toEqual([`POST /invoices/${draft.id}/send 200`]);
		expect(run.requests[0].body).toEqual({ email: 'accounts@example.com' });
		const after = await session.sandbox.record('invoices', draft.id);
		expect(after).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
		expect(run.items).toEqual([after]);
	});

	test('Mark as Paid: the ERP records the payment and nothing is due any more', async () => {
		const unpaid = (await session.sandbox.records('invoices')).find((i) => i.status === 'sent' || i.status === 'overdue');
		if (!unpaid) throw new Error('the seeded sandbox has no unpaid invoice');
		const run = await runErp(session, {
			resource: 'invoice',
			operation: 'markPaid',
			invoiceId: byId(unpaid.id),
			additionalFields: { paymentMethod: 'card', reference: 'STRIPE-ch_3PqX' },
		});

		expect(calls(run)).toEqual([`POST /invoices/${unpaid.id}/mark-paid 200`]);
		expect(run.requests[0].body).toEqual({ payment_method: 'card', reference: 'STRIPE-ch_3PqX' });
		const after = await session.sandbox.record('invoices', unpaid.id);
		expect(after).toMatchObject({
			status: 'paid',
			amount_due: 0,
			total: unpaid.total,
			payment_method: 'card',
			payment_reference: 'STRIPE-ch_3PqX',
			paid_at: expect.any(String),
		});
		expect(run.items).toEqual([after]);
	});
});
