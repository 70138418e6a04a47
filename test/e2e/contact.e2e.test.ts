import type { Contact } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { waitForExecutions } from '../../tooling/host/executions';
import { fieldsParameter } from '../../tooling/host/fields';
import { calls, runErp } from '../../tooling/host/runErp';
import { connect, type Session } from '../../tooling/host/session';
import { byId, splitOutNode } from '../../tooling/host/workflows';

describe('ERP node › Contact, inside a real n8n', () => {
	let session: Session;
	beforeAll(async () => {
		session = await connect();
	});

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
