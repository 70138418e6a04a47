import { createHmac } from 'node:crypto';

import { contentDigest } from '../../nodes/ErpTrigger/deliveryKey';
import type { EventName } from '../../sandbox/events';
import type { Contact, Employee, Invoice } from '../../sandbox/types';
import { erpApi } from '../../tooling/host/erpApi';
import { allExecutions, nodeOutput, waitForExecutions } from '../../tooling/host/executions';
import { activeTrigger, type ActiveTrigger, settledDeliveries } from '../../tooling/host/triggers';
import type { Credential } from '../../tooling/host/types';
import { useSession } from './setup/session';

const session = useSession();

const EVENTS: EventName[] = ['contact.created', 'contact.updated', 'invoice.paid', 'invoice.overdue', 'product.low_stock', 'employee.hired'];

/** The field of an event's data that holds the id of the record it is about. */
const ID_FIELD: Record<EventName, string> = {
	'contact.created': 'id',
	'contact.updated': 'id',
	'invoice.paid': 'invoice_id',
	'invoice.overdue': 'invoice_id',
	'product.low_stock': 'product_id',
	'employee.hired': 'id',
};

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('ERP Trigger inside a real n8n: the sandbox delivers each event to an active workflow', () => {
	const triggers = new Map<EventName, ActiveTrigger>();

	beforeAll(async () => {
		// One workflow per event, each subscribed to every event: a delivery of another event must start nothing.
		for (const event of EVENTS) triggers.set(event, await activeTrigger(session, `e2e trigger ${event}`, [event]));
	});

	/** Makes the ERP emit the event through its API (as a user of the ERP would) and returns the id it is about. */
	const cause: Record<EventName, () => Promise<number>> = {
		'contact.created': async () =>
			(await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Ines', last_name: 'Ferreira', email: 'ines.ferreira@lusomar.pt', company: 'Lusomar Lda' })).id,
		'contact.updated': async () => {
			const [contact] = await session.sandbox.records('contacts');
			await erpApi(session.ctx, 'PUT', `/contacts/${contact.id}`, { company: 'Renamed Trading Ltd' });
			return contact.id;
		},
		'invoice.paid': async () => {
			const unpaid = (await session.sandbox.records('invoices')).find((i) => i.status === 'sent' || i.status === 'overdue');
			if (!unpaid) throw new Error('no unpaid invoice left in the sandbox');
			await erpApi(session.ctx, 'POST', `/invoices/${unpaid.id}/mark-paid`, { payment_method: 'bank_transfer', reference: 'SEPA-2211' });
			return unpaid.id;
		},
		'invoice.overdue': async () => {
			const [contact] = await session.sandbox.records('contacts');
			const invoice = await erpApi<Invoice>(session.ctx, 'POST', '/invoices', {
				contact_id: contact.id,
				issue_date: isoDay(-44),
				due_date: isoDay(-14),
				lines: [{ description: 'Maintenance, October', unit_price: 320, tax_rate: 20 }],
			});
			await erpApi(session.ctx, 'POST', `/invoices/${invoice.id}/send`, { email: 'ap@example.com' });
			await session.sandbox.sweep();
			return invoice.id;
		},
		'product.low_stock': async () => {
			const product = (await session.sandbox.records('products')).find((p) => p.stock_total >= p.low_stock_threshold + 2);
			if (!product) throw new Error('no well-stocked product in the sandbox');
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 1, quantity: 0 });
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 2, quantity: 0 });
			await session.sandbox.setStock({ product_id: product.id, warehouse_id: 3, quantity: product.low_stock_threshold - 1 });
			return product.id;
		},
		'employee.hired': async () =>
			(await erpApi<Employee>(session.ctx, 'POST', '/employees', { first_name: 'Tomás', last_name: 'Novak', email: `tomas.novak.${Date.now()}@northwind-industries.com`, department: 'Sales' })).id,
	};

	/** What the event's data must say about the record, read from the sandbox's own store afterwards. */
	const expectedData = async (event: EventName, id: number): Promise<Record<string, unknown>> => {
		switch (event) {
			case 'contact.created':
				return { ...(await session.sandbox.record('contacts', id)) };
			case 'contact.updated':
				return { ...(await session.sandbox.record('contacts', id)), changed_fields: ['company'] };
			case 'invoice.paid': {
				const i = (await session.sandbox.record('invoices', id)) as Invoice;
				return { invoice_id: id, amount: i.total, currency: i.currency, number: i.number, contact_id: i.contact_id, paid_at: i.paid_at };
			}
			case 'invoice.overdue': {
				const i = (await session.sandbox.record('invoices', id)) as Invoice;
				expect(i.status).toBe('overdue');
				return { invoice_id: id, number: i.number, contact_id: i.contact_id, amount_due: i.amount_due, currency: i.currency, due_date: i.due_date, days_overdue: 14 };
			}
			case 'product.low_stock': {
				const p = await session.sandbox.record('products', id);
				return { product_id: id, sku: p?.sku, name: p?.name, low_stock_threshold: p?.low_stock_threshold, stock_total: expect.any(Number) };
			}
			case 'employee.hired':
				return { ...(await session.sandbox.record('employees', id)) };
		}
	};

	test.each(EVENTS)('%s starts its workflow with the event the sandbox sent', async (event) => {
		const lastSeq = (await session.sandbox.events()).at(-1)?.seq ?? 0;
		const id = await cause[event]();
		const data = await expectedData(event, id);
		const emitted = (await session.sandbox.events()).filter((e) => e.seq > lastSeq && e.event === event);
		const ours = emitted.filter((e) => (e.data as Record<string, unknown>)[ID_FIELD[event]] === id);
		expect(ours).toHaveLength(1);

		const deliveries = await settledDeliveries(session.sandbox, ours[0].deliveryIds);
		const urls = [...triggers.values()].map((t) => t.url);
		// Every trigger URL acknowledged on the first attempt, the five not listening to this event too.
		expect(deliveries.filter((d) => urls.includes(d.url)).map((d) => [d.url, d.delivered, d.attempts.map((a) => a.status)])).toEqual(
			expect.arrayContaining(urls.map((url) => [url, true, [200]])),
		);

		const trigger = triggers.get(event) as ActiveTrigger;
		const [execution] = await waitForExecutions(session.n8n, trigger.workflow.id);
		const toTrigger = deliveries.find((d) => d.url === trigger.url);
		const delivered = toTrigger?.body;
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([{ ...(delivered as object), deliveryKey: toTrigger?.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
		expect(delivered).toEqual({ event, timestamp: ours[0].timestamp, data: expect.objectContaining(data) });
	});

	test('each workflow ran once, for its own event only', async () => {
		for (const [event, trigger] of triggers) {
			const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
			expect({ event, ran: executions.map((e) => nodeOutput(e, 'ERP Trigger')[0]?.event) }).toEqual({ event, ran: [event] });
		}
	});

	test('n8n refuses a body that is not JSON (422) before the trigger sees it; nothing runs', async () => {
		const trigger = triggers.get('contact.created') as ActiveTrigger;
		const before = (await allExecutions(session.n8n, trigger.workflow.id)).length;
		const response = await fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event": "contact.created",' });

		expect(response.status).toBe(422);
		expect(await response.json()).toMatchObject({ message: 'Failed to parse request body' });
		expect(await allExecutions(session.n8n, trigger.workflow.id)).toHaveLength(before);
	});

	/** A trigger only the test posts to (the sandbox does not deliver to it), and a POST to it. */
	const ownTrigger = (events: string[]) => activeTrigger(session, `e2e trigger ${events.join(', ')}, posted to by the test`, events, { subscribed: false });
	const post = (trigger: ActiveTrigger, body: unknown, contentType = 'application/json') =>
		fetch(trigger.url, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify(body) });

	test('an event name the API document does not list is answered 200 and starts nothing when not selected', async () => {
		const trigger = await ownTrigger(['contact.created']);
		const unlisted = await post(trigger, { event: 'contact.deleted', timestamp: new Date().toISOString(), data: { id: 1 } });
		// Answered after the unlisted one: once its run is saved, a run the unlisted one started would show too.
		const listed = { event: 'contact.created', timestamp: new Date().toISOString(), data: { id: 2 } };
		await post(trigger, listed);

		expect(unlisted.status).toBe(200);
		expect(await unlisted.json()).toEqual({ message: 'Event contact.deleted is not selected in this trigger: ignored' });
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([[{ ...listed, deliveryKey: contentDigest(listed), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]]);
	});

	test('with All Events, an unlisted event name sent as text/plain with a +0000 timestamp starts the workflow with the delivery as sent', async () => {
		const trigger = await ownTrigger(['*']);
		const delivery = { event: 'contact.archived', timestamp: '2026-11-23T10:00:00+0000', data: { id: 7, reason: 'duplicate' } };
		const response = await post(trigger, delivery, 'text/plain');

		expect(response.status).toBe(200);
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([[{ ...delivery, deliveryKey: contentDigest(delivery), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }]]);
	});

	test('the trigger answers 400 to a body that cannot be a delivery (no event name); nothing runs', async () => {
		const trigger = triggers.get('contact.created') as ActiveTrigger;
		const before = (await allExecutions(session.n8n, trigger.workflow.id)).length;
		const response = await post(trigger, { timestamp: new Date().toISOString(), data: { id: 1 } });

		expect(response.status).toBe(400);
		expect(await response.json()).toEqual({ message: 'Field "event" is missing: name the event, e.g. "invoice.paid"' });
		expect(await allExecutions(session.n8n, trigger.workflow.id)).toHaveLength(before);
	});
});

const SECRET = 'whsec-7f3a9c';

describe('ERP Trigger signature check, inside a real n8n, with the Webhook Signing Secret of the ERP API credential', () => {
	let credential: Credential;
	beforeAll(async () => {
		credential = await session.n8n.createCredential(`ERP API with webhook secret (e2e ${Date.now()})`, 'erpApi', {
			baseUrl: session.ctx.sandboxBaseUrl,
			apiToken: session.ctx.token,
			webhookSecret: SECRET,
		});
	});

	test('a delivery signed with the shared secret starts the workflow; one signed with another secret is refused (401) and starts nothing', async () => {
		const good = await activeTrigger(session, 'e2e signed trigger', ['contact.created'], { signedWith: credential, sandboxSecret: SECRET });
		const forged = await activeTrigger(session, 'e2e signed trigger, wrong secret', ['contact.created'], {
			signedWith: credential,
			sandboxSecret: 'not-the-secret',
		});
		const lastSeq = (await session.sandbox.events()).at(-1)?.seq ?? 0;

		const { id } = await erpApi<Contact>(session.ctx, 'POST', '/contacts', { first_name: 'Signed', email: 'signed@example.com' });

		const [emitted] = (await session.sandbox.events()).filter((e) => e.seq > lastSeq && e.event === 'contact.created');
		const deliveries = await settledDeliveries(session.sandbox, emitted.deliveryIds);
		const to = (url: string) => deliveries.find((d) => d.url === url);
		expect(to(good.url)?.attempts.map((a) => a.status)).toEqual([200]);
		// The sandbox retries a refused delivery (same bytes, same signature): every attempt is refused.
		expect(to(forged.url)?.attempts.map((a) => a.status)).toEqual([401, 401, 401, 401]);

		const [execution] = await waitForExecutions(session.n8n, good.workflow.id);
		expect(nodeOutput(execution, 'ERP Trigger')).toEqual([
			{ event: 'contact.created', timestamp: emitted.timestamp, deliveryKey: to(good.url)?.id, eventKey: expect.stringMatching(/^[0-9a-f]{64}$/), data: expect.objectContaining({ id }) },
		]);
		expect(await allExecutions(session.n8n, forged.workflow.id)).toEqual([]);
	});

	test('n8n hands the trigger the exact bytes: a pretty-printed body signed over them starts the workflow, the signature of its re-serialisation does not', async () => {
		const trigger = await activeTrigger(session, 'e2e signed trigger, raw bytes', ['*'], { signedWith: credential, subscribed: false });
		const content = { event: 'invoice.paid', timestamp: '2026-11-23T10:00:00+0000', data: { amount: 1.5, name: 'Müller' } };
		const pretty = '{\r\n  "event" : "invoice.paid",\n\t"data": {"amount": 1.50, "name": "M\\u00fcller"},   "timestamp":"2026-11-23T10:00:00+0000"\n}\n';
		const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
		const post = (signature: string) =>
			fetch(trigger.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-erp-signature': signature }, body: pretty });

		const reserialised = await post(sign(JSON.stringify(JSON.parse(pretty))));
		const exact = await post(sign(pretty));

		expect(reserialised.status).toBe(401);
		expect(exact.status).toBe(200);
		const executions = await waitForExecutions(session.n8n, trigger.workflow.id);
		expect(executions.map((e) => nodeOutput(e, 'ERP Trigger'))).toEqual([
			[{ ...content, deliveryKey: contentDigest(content), eventKey: expect.stringMatching(/^[0-9a-f]{64}$/) }],
		]);
	});
});
