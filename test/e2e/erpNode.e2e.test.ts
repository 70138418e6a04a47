import type { Contact } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { waitForExecutions } from '../../tooling/host/executions';
import { fieldsParameter } from '../../tooling/host/fields';
import { calls, runErp } from '../../tooling/host/runErp';
import { byId, splitOutNode } from '../../tooling/host/workflows';
import { useSession } from './setup/session';
import { sentInvoice } from './support';

const session = useSession();

type Collection = 'contacts' | 'employees' | 'products' | 'invoices';
const RESOURCES = { contact: 'contacts', employee: 'employees', product: 'products', invoice: 'invoices' } as const;
type Resource = keyof typeof RESOURCES;
type Row = Record<string, unknown>;
const records = async (collection: Collection | 'payroll' | 'stock') => (await session.sandbox.records(collection)) as unknown as Row[];

describe('ERP node › Contact, inside a real n8n', () => {
	test('Create: values from the webhook body become a contact in the ERP', async () => {
		const input = { first: 'Greta', last: 'Lindqvist', email: 'greta.lindqvist@lindqvist-trading.se', phone: '+46 8 123 4567', company: 'Lindqvist Trading AB' };
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
		const { first: first_name, last: last_name, ...rest } = input;
		const expected = { first_name, last_name, ...rest, notes: 'Met at the Stockholm trade fair', custom_fields: { vat_number: 'SE556677889901' } };
		expect(run.requests[0].body).toEqual(expected);
		const stored = (await session.sandbox.records('contacts')).filter((c) => c.email === input.email);
		expect(stored).toEqual([expect.objectContaining(expected)]);
		// The ERP's answer (id, first_name, created_at) over what was sent: a next node finds the e-mail without a read.
		expect(run.items).toEqual([{ ...expected, id: stored[0].id, created_at: stored[0].created_at }]);
	});

	const autoMap = { resource: 'contact', columns: fieldsParameter('contact', null, 'autoMapInputData') };
	const perRow = [splitOutNode('body.rows')];

	test('Create with Map Automatically: each row becomes a contact, its fields taken by name; a field the ERP does not know stops the run, naming it', async () => {
		const rows = [
			{ first_name: 'Ines', last_name: 'Moreau', email: 'ines.moreau@atelier-moreau.fr', phone: '+33 1 42 68 53 00', row: 2 },
			{ first_name: 'Tomasz', email: 'tomasz@nowak-logistics.pl', company: 'Nowak Logistics', custom_fields: { tier: 'silver' }, row: 3 },
		];
		const run = await runErp(session, { ...autoMap, operation: 'create', ignoreFields: 'row' }, { input: { rows }, before: perRow });

		expect(run.status).toBe(200);
		expect(calls(run)).toEqual(['POST /contacts 201', 'POST /contacts 201']);
		expect(run.requests.map((request) => request.body)).toEqual(rows.map(({ row: _row, ...fields }) => fields));
		const stored = (await session.sandbox.records('contacts')).filter((c) => rows.some((r) => r.email === c.email));
		expect(stored.map((c) => c.first_name).sort()).toEqual(['Ines', 'Tomasz']);
		expect(run.items.map((item) => item.first_name)).toEqual(['Ines', 'Tomasz']);

		const unknown = await runErp(session, { ...autoMap, operation: 'create' }, { input: { rows: [{ first_name: 'Ines', fax: '+33 1 42 68 53 01' }] }, before: perRow });
		expect(unknown.status).toBe(500);
		expect(unknown.requests).toEqual([]);
		const [execution] = await waitForExecutions(session.n8n, unknown.workflowId);
		expect(execution.data?.resultData.error?.message).toBe('Input field "fax" is not a field of a contact');
	});

	test('Create or Update run twice over the same rows: created, then updated; the ERP holds each contact once', async () => {
		const stamp = Date.now();
		const rows = (label: string) => [
			{ first_name: `Ines ${label}`, email: `ines.${stamp}@atelier-moreau.fr` },
			{ first_name: `Tomasz ${label}`, email: `tomasz.${stamp}@nowak-logistics.pl` },
		];
		const first = await runErp(session, { ...autoMap, operation: 'upsert' }, { input: { rows: rows('first') }, before: perRow });
		const second = await runErp(session, { ...autoMap, operation: 'upsert' }, { input: { rows: rows('second') }, before: perRow });

		expect(first.items.map((item) => item.action)).toEqual(['created', 'created']);
		expect(second.items.map((item) => item.action)).toEqual(['updated', 'updated']);
		expect(second.requests.filter((r) => r.method === 'POST')).toEqual([]);
		const stored = (await session.sandbox.records('contacts')).filter((c) => String(c.email).includes(String(stamp)));
		expect(stored.map((c) => c.first_name).sort()).toEqual(['Ines second', 'Tomasz second']);
		expect(second.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
	});

	test('Delete: the contact is gone from the ERP', async () => {
		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Temporary', email: 'temp@example.com' });
		const run = await runErp(session, { resource: 'contact', operation: 'delete', contactId: byId(id) });

		expect(calls(run)).toEqual([`DELETE /contacts/${id} 200`]);
		expect(await session.sandbox.record('contacts', id)).toBeUndefined();
		expect(run.items).toEqual([{ deleted: true, id }]);
	});
});

describe('ERP node, every resource, inside a real n8n', () => {
	test.each<[Resource, number]>([
		['contact', 2],
		['employee', 2],
		['product', 3],
		['invoice', 5],
	])('Get (%s): outputs the record exactly as the ERP holds it', async (resource, index) => {
		const record = (await records(RESOURCES[resource]))[index];
		const run = await runErp(session, { resource, operation: 'get', [`${resource}Id`]: byId(record.id) });

		expect(calls(run)).toEqual([`GET /${RESOURCES[resource]}/${String(record.id)} 200`]);
		expect(run.items).toEqual([record]);
	});

	/** A list operation's parameters, the one request it must cost (path and query) and the records it must output, read from the ERP. */
	type List = { resource: Resource; parameters: Row; path?: string; query: Record<string, string>; expected: Row[] };
	test.each<[string, () => Promise<List>]>([
		[
			'Contact › Get Many: a company filter returns exactly the ERP contacts of that company',
			async () => {
				const all = await records('contacts');
				const company = all.find((c) => c.company)?.company as string;
				return { resource: 'contact', parameters: { returnAll: true, filters: { company } }, query: { company }, expected: all.filter((c) => c.company === company) };
			},
		],
		[
			'Contact › Get Many: Limit returns the first contacts in the ERP order',
			async () => ({ resource: 'contact', parameters: { returnAll: false, limit: 7 }, query: { per_page: '7' }, expected: (await records('contacts')).slice(0, 7) }),
		],
		[
			'Employee › Get Many: a department filter returns exactly the ERP employees of that department',
			async () => {
				const all = await records('employees');
				const department = all[0].department as string;
				return { resource: 'employee', parameters: { returnAll: true, filters: { department } }, query: { department }, expected: all.filter((e) => e.department === department) };
			},
		],
		[
			'Employee › Get Payroll: the latest pay runs, newest first, as the ERP booked them',
			async () => {
				const [employee] = await records('employees');
				const payroll = (await records('payroll')).filter((row) => row.employee_id === employee.id).sort((a, b) => String(b.period).localeCompare(String(a.period)));
				expect(payroll.length).toBeGreaterThan(3);
				const parameters = { operation: 'getPayroll', employeeId: byId(employee.id), returnAll: false, limit: 3 };
				return { resource: 'employee', parameters, path: `/employees/${String(employee.id)}/payroll`, query: { per_page: '3' }, expected: payroll.slice(0, 3) };
			},
		],
		[
			'Product › Get Many: Low Stock Only returns exactly the ERP products below their threshold',
			async () => {
				const low = (await records('products')).filter((p) => Number(p.stock_total) < Number(p.low_stock_threshold));
				expect(low.length).toBeGreaterThan(0);
				return { resource: 'product', parameters: { returnAll: true, filters: { lowStock: 'true' } }, query: { low_stock: 'true' }, expected: low };
			},
		],
		[
			'Invoice › Get Many: the Overdue filter with Return All returns every overdue invoice of the ERP',
			async () => {
				const overdue = (await records('invoices')).filter((i) => i.status === 'overdue');
				expect(overdue.length).toBeGreaterThan(1);
				return { resource: 'invoice', parameters: { returnAll: true, filters: { status: 'overdue' } }, query: { status: 'overdue' }, expected: overdue };
			},
		],
	])('%s', async (_name, list) => {
		const { resource, parameters, path, query, expected } = await list();
		const run = await runErp(session, { resource, operation: 'getAll', ...parameters });

		expect(run.requests.map((r) => [r.path, r.query, r.status])).toEqual([[path ?? `/${RESOURCES[resource]}`, expect.objectContaining(query), 200]]);
		expect(run.items).toEqual(expected);
	});

	test.each<[string, Resource, number, Row, Row, string[]]>([
		['Contact › Update: changes only the chosen fields in the ERP', 'contact', 4, { phone: '+49 40 9876543', company: 'Hanse Handelshaus GmbH' }, { phone: '+49 40 9876543', company: 'Hanse Handelshaus GmbH' }, []],
		['Product › Update: a new price and the product deactivated in the ERP', 'product', 1, { unitPrice: 19.95, active: false }, { unit_price: 19.95, active: false }, ['stock_total']],
	])('%s', async (_name, resource, index, updateFields, changed, alsoAssigned) => {
		const collection = RESOURCES[resource];
		const before = (await records(collection))[index];
		const id = before.id as number;
		const run = await runErp(session, { resource, operation: 'update', [`${resource}Id`]: byId(id), updateFields });

		// Read, then written back whole: every field but those the ERP assigns, with the chosen ones changed.
		expect(calls(run)).toEqual([`GET /${collection}/${id} 200`, `PUT /${collection}/${id} 200`]);
		const assigned = ['id', 'created_at', 'updated_at', ...alsoAssigned];
		expect(run.requests[1].body).toEqual({ ...Object.fromEntries(Object.entries(before).filter(([name]) => !assigned.includes(name))), ...changed });
		const after = (await records(collection)).find((r) => r.id === id);
		expect(after).toEqual({ ...before, ...changed, updated_at: after?.updated_at });
		expect(run.items).toEqual([after]);
	});

	test.each<[string, 'employee' | 'product', string, Row, Row]>([
		[
			'Employee › Create: a new hire in the ERP, active, with an employee number',
			'employee',
			'email',
			{ first_name: 'Mara', last_name: 'Keller', email: `mara.keller.${Date.now()}@northwind-industries.com`, department: 'Finance', job_title: 'Controller', salary: 64000, employment_type: 'part_time' },
			{ status: 'active', employee_number: expect.stringMatching(/^EMP-\d{4}$/) },
		],
		[
			'Product › Create: a product with its price, unit and low-stock threshold in the ERP',
			'product',
			'sku',
			{ sku: `DESK-OAK-${Date.now()}`, name: 'Oak Standing Desk', unit_price: 549.9, unit: 'pcs', low_stock_threshold: 5, description: 'Electric, 70–120 cm' },
			{ active: true, stock_total: 0 },
		],
	])('%s', async (_name, resource, key, values, assignedByErp) => {
		const run = await runErp(session, { resource, operation: 'create', columns: fieldsParameter(resource, values) });

		expect(calls(run)).toEqual([`POST /${RESOURCES[resource]} 201`]);
		expect(run.requests[0].body).toEqual(values);
		const stored = (await records(RESOURCES[resource])).filter((r) => r[key] === values[key]);
		expect(stored).toEqual([expect.objectContaining({ ...values, ...assignedByErp })]);
		expect(run.items).toEqual(stored);
	});
});

describe('ERP node › Product and Invoice, inside a real n8n', () => {
	test('Product › Get Stock: one item per warehouse, as the ERP counts it', async () => {
		const product = (await session.sandbox.records('products'))[0];
		const run = await runErp(session, { resource: 'product', operation: 'getStock', productId: byId(product.id) });
		const stock = (await session.sandbox.records('stock')).filter((row) => row.product_id === product.id).map(({ product_id: _product, ...row }) => row);

		expect(calls(run)).toEqual([`GET /products/${product.id}/stock 200`]);
		expect(stock.map((row) => row.warehouse_code)).toEqual(['MAIN', 'NORTH', 'SOUTH']);
		expect(run.items.map(({ product_id: _product, ...row }) => row)).toEqual(stock);
		expect(stock.reduce((sum, row) => sum + row.quantity, 0)).toBe(product.stock_total);
	});

	test('Invoice › Create: line items become an invoice the ERP totals itself', async () => {
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

	test('Invoice › Send, then Mark as Paid: the ERP sends a draft, then records the payment and nothing is due any more', async () => {
		const [contact] = await session.sandbox.records('contacts');
		const draft = await erpApi<{ id: number }>(session.ctx, 'POST', '/invoices', { contact_id: contact.id, lines: [{ description: 'Workshop day', unit_price: 950, tax_rate: 19 }] });
		const send = await runErp(session, { resource: 'invoice', operation: 'send', invoiceId: byId(draft.id), additionalFields: { email: 'accounts@example.com' } });

		expect(calls(send)).toEqual([`POST /invoices/${draft.id}/send 200`]);
		expect(send.requests[0].body).toEqual({ email: 'accounts@example.com' });
		const sent = await session.sandbox.record('invoices', draft.id);
		expect(sent).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
		expect(send.items).toEqual([sent]);

		const unpaid = await sentInvoice(session);
		const paid = await runErp(session, { resource: 'invoice', operation: 'markPaid', invoiceId: byId(unpaid.id), additionalFields: { paymentMethod: 'card', reference: 'STRIPE-ch_3PqX' } });
		expect(calls(paid)).toEqual([`POST /invoices/${unpaid.id}/mark-paid 200`]);
		expect(paid.requests[0].body).toEqual({ payment_method: 'card', reference: 'STRIPE-ch_3PqX' });
		const after = await session.sandbox.record('invoices', unpaid.id);
		expect(after).toMatchObject({ status: 'paid', amount_due: 0, total: unpaid.total, payment_method: 'card', payment_reference: 'STRIPE-ch_3PqX', paid_at: expect.any(String) });
		expect(paid.items).toEqual([after]);
	});
});
